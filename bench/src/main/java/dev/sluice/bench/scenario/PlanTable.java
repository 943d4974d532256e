package dev.sluice.bench.scenario;

import static java.util.Objects.requireNonNull;

import dev.sluice.bench.catalog.LocalFilesIO;
import dev.sluice.bench.target.Endpoint;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.Metrics;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.Transaction;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.types.Conversions;
import org.apache.iceberg.types.Types;

/**
 * The plan phase's table: {@code snapshots} fast appends of {@code files / snapshots} data files
 * each, partitioned by identity on {@code day}, as a daily ingest writes it: the appends of one day
 * land in that day's partition, so a one-day filter prunes whole manifests by their partition
 * summaries and a full scan reads every manifest. The data files are metadata only (paths, sizes,
 * record counts, per-column bounds on {@code id}): planning reads manifests, never data. {@code
 * hadoopIo}: the client's FileIO is Iceberg's default for {@code file:} paths (HadoopFileIO), not
 * {@link LocalFilesIO}.
 */
public record PlanTable(int snapshots, int files, boolean hadoopIo) {
  /** The namespace of the phase's tables (Fixture.NAMESPACES: granted to the RBAC principal). */
  public static final String NAMESPACE = Fixture.PLAN_NAMESPACE;

  /** Partitions (days) of a table; fewer when it has fewer snapshots. */
  static final int DAYS = 50;

  /** Rows per data file, so that file {@code k} of the table holds ids {@code k·R … k·R+R−1}. */
  private static final long ROWS_PER_FILE = 1_000;

  static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.required(2, "day", Types.IntegerType.get()),
          Types.NestedField.optional(3, "note", Types.StringType.get()));
  static final PartitionSpec SPEC = PartitionSpec.builderFor(SCHEMA).identity("day").build();

  public PlanTable {
    if (snapshots < 1 || files < snapshots || files % snapshots != 0) {
      throw new IllegalArgumentException(
          "A plan table needs files ("
              + files
              + ") a positive multiple of snapshots ("
              + snapshots
              + ")");
    }
  }

  /** What building the table took. */
  public record Built(TableIdentifier table, double seconds, int commitRequests) {}

  public int days() {
    return Math.min(DAYS, snapshots);
  }

  /** The day snapshot {@code i} (0-based) appends to: consecutive runs of snapshots per day. */
  int dayOf(int snapshot) {
    return (int) ((long) snapshot * days() / snapshots);
  }

  /** The one-partition filter: the middle day. */
  public Expression partitionFilter() {
    return Expressions.equal("day", days() / 2);
  }

  /** Files in the middle day's partition: what {@link #partitionFilter} plans. */
  public int filesInPartition() {
    int perSnapshot = files / snapshots;
    int n = 0;
    for (int i = 0; i < snapshots; i++) {
      if (dayOf(i) == days() / 2) {
        n += perSnapshot;
      }
    }
    return n;
  }

  /**
   * Creates {@code NAMESPACE.name} on {@code endpoint} as its principal and appends to it, {@code
   * perRequest} fast appends per commit request (a transaction: one request carries them all, and
   * the table's snapshots and log come out as if committed one by one).
   */
  public Built build(Endpoint endpoint, String name, int perRequest) {
    requireNonNull(endpoint, "endpoint");
    TableIdentifier id = TableIdentifier.of(Namespace.of(NAMESPACE), name);
    long t0 = System.nanoTime();
    int requests = 0;
    try (RESTCatalog catalog = catalog(endpoint, false)) {
      Table table;
      try {
        table = catalog.createTable(id, SCHEMA, SPEC);
      } catch (AlreadyExistsException e) {
        throw new IllegalStateException(
            "Plan table " + id + " exists already on " + endpoint.name(), e);
      }
      int perSnapshot = files / snapshots;
      for (int first = 0; first < snapshots; first += perRequest) {
        Transaction tx = table.newTransaction();
        for (int s = first; s < Math.min(snapshots, first + perRequest); s++) {
          AppendFiles append = tx.newFastAppend();
          for (int f = 0; f < perSnapshot; f++) {
            append.appendFile(dataFile(table, dayOf(s), s * perSnapshot + f));
          }
          append.commit();
        }
        tx.commitTransaction();
        requests++;
      }
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    return new Built(id, (System.nanoTime() - t0) / 1e9, requests);
  }

  /** Data file number {@code k}: ids {@code k·R … k·R+R−1}, no nulls. */
  private static DataFile dataFile(Table table, int day, long k) {
    ByteBuffer lower = Conversions.toByteBuffer(Types.LongType.get(), k * ROWS_PER_FILE);
    ByteBuffer upper =
        Conversions.toByteBuffer(Types.LongType.get(), k * ROWS_PER_FILE + ROWS_PER_FILE - 1);
    return DataFiles.builder(SPEC)
        .withPath(table.location() + "/data/day=" + day + "/" + k + ".parquet")
        .withPartitionPath("day=" + day)
        .withFileSizeInBytes(64 * 1024)
        .withFormat("parquet")
        .withMetrics(
            new Metrics(
                ROWS_PER_FILE,
                Map.of(1, 8 * ROWS_PER_FILE, 2, 4 * ROWS_PER_FILE),
                Map.of(1, ROWS_PER_FILE, 2, ROWS_PER_FILE),
                Map.of(1, 0L, 2, 0L),
                null,
                Map.of(1, lower),
                Map.of(1, upper)))
        .build();
  }

  /**
   * Iceberg's own REST client for the target, as its principal: planning on the server when {@code
   * serverPlanning} (the client property {@code scan-planning-mode=server}), else in this process,
   * reading the manifests from the warehouse itself.
   */
  public RESTCatalog catalog(Endpoint endpoint, boolean serverPlanning) {
    Map<String, String> props = new HashMap<>();
    props.put("uri", "http://" + endpoint.host() + ":" + endpoint.port() + endpoint.basePath());
    if (!endpoint.prefix().isEmpty()) {
      props.put("warehouse", endpoint.prefix());
    }
    String authorization = endpoint.authorization();
    if (authorization != null) {
      props.put("token", authorization.replaceFirst("^Bearer ", ""));
      // The bench's tokens outlive its runs; a refresh would be a request the runs did not ask for.
      props.put("token-refresh-enabled", "false");
    }
    props.put("scan-planning-mode", serverPlanning ? "server" : "client");
    if (!hadoopIo) {
      props.put("io-impl", LocalFilesIO.class.getName());
    }
    RESTCatalog catalog = new RESTCatalog();
    catalog.initialize("bench-" + endpoint.name(), props);
    return catalog;
  }
}
