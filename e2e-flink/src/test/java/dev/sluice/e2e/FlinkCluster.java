package dev.sluice.e2e;

import static java.util.Objects.requireNonNull;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ExecutionOptions;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;

/**
 * One Flink MiniCluster in the test JVM, shared by a test class, and the SQL sessions (table
 * environments) that submit jobs to it through its REST endpoint on 127.0.0.1, as a Flink client
 * would. A failed job is not restarted: a refusal shows at once.
 */
final class FlinkCluster implements AutoCloseable {
  /** The longest any one statement's job may run. */
  static final Duration JOB_TIMEOUT = Duration.ofMinutes(2);

  private final MiniCluster cluster;
  private final URI rest;

  private FlinkCluster(MiniCluster cluster, URI rest) {
    this.cluster = requireNonNull(cluster, "cluster");
    this.rest = requireNonNull(rest, "rest");
  }

  /** Starts a cluster of one task manager with two slots on loopback ports. */
  static FlinkCluster start() throws Exception {
    Configuration conf = new Configuration();
    conf.set(RestOptions.ADDRESS, "127.0.0.1");
    conf.set(RestOptions.BIND_ADDRESS, "127.0.0.1");
    conf.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
    MiniCluster cluster =
        new MiniCluster(
            new MiniClusterConfiguration.Builder()
                .withRandomPorts()
                .setNumTaskManagers(1)
                .setNumSlotsPerTaskManager(2)
                .setConfiguration(conf)
                .build());
    cluster.start();
    try {
      return new FlinkCluster(cluster, cluster.getRestAddress().get(30, TimeUnit.SECONDS));
    } catch (Exception e) {
      cluster.close();
      throw e;
    }
  }

  /** A new SQL session in batch mode. */
  TableEnvironment batch() {
    StreamExecutionEnvironment env = environment(RuntimeExecutionMode.BATCH);
    return StreamTableEnvironment.create(env, EnvironmentSettings.inBatchMode());
  }

  /** A new SQL session in streaming mode, checkpointing every {@code interval}. */
  TableEnvironment streaming(Duration interval) {
    StreamExecutionEnvironment env = environment(RuntimeExecutionMode.STREAMING);
    env.enableCheckpointing(interval.toMillis());
    return StreamTableEnvironment.create(env, EnvironmentSettings.inStreamingMode());
  }

  private StreamExecutionEnvironment environment(RuntimeExecutionMode mode) {
    Configuration conf = new Configuration();
    conf.set(ExecutionOptions.RUNTIME_MODE, mode);
    conf.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
    StreamExecutionEnvironment env =
        StreamExecutionEnvironment.createRemoteEnvironment(rest.getHost(), rest.getPort(), conf);
    env.setParallelism(1); // one writer: one data file per commit, easy to count
    return env;
  }

  /** Runs {@code sql} (DDL, or DML whose job it waits for); fails with the job's failure. */
  static void run(TableEnvironment session, String sql) throws Exception {
    TableResult result = session.executeSql(sql);
    if (result.getJobClient().isPresent()) {
      result.await(JOB_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
    }
  }

  /** The rows of a query, each as a list of its fields. */
  static List<List<Object>> rows(TableEnvironment session, String sql) throws Exception {
    List<List<Object>> rows = new ArrayList<>();
    try (CloseableIterator<Row> it = session.executeSql(sql).collect()) {
      while (it.hasNext()) {
        Row row = it.next();
        List<Object> fields = new ArrayList<>();
        for (int i = 0; i < row.getArity(); i++) {
          fields.add(row.getField(i));
        }
        rows.add(fields);
      }
    }
    return rows;
  }

  /** Every message of {@code e}'s cause chain, one a line, as a user reads a stack trace. */
  static String messages(Throwable e) {
    StringBuilder out = new StringBuilder();
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      out.append(t).append('\n');
    }
    return out.toString();
  }

  @Override
  public void close() throws Exception {
    cluster.close();
  }
}
