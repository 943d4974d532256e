package dev.sluice.bench.micro;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.vending.AccessMode;
import dev.sluice.vending.s3.SessionPolicyBuilder;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The inline session policy StsCredentialVendor sends with every AssumeRole, for one table
 * location: {@code SessionPolicyBuilder.build(scopes(locations), mode, null, null)} (built-in
 * policy, no template).
 *
 * <ul>
 *   <li>{@code sessionPolicy_jacksonOnly} (baseline): Jackson writing the finished read-write
 *       policy, parsed once in setup, with the same call the builder ends with ({@code
 *       ObjectNode.toString()}). The least any JSON policy costs; the pair shows what parsing the
 *       locations, folding them and building the tree add on top.
 *   <li>{@code sessionPolicy_readWrite}: the whole read-write build.
 *   <li>{@code sessionPolicy_read}: the whole read-only build (one statement fewer), reported
 *       against the read-write build.
 * </ul>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class SessionPolicyBench {
  private static final List<String> LOCATIONS = List.of("s3://sluice-bench/warehouse/bench/t0");

  private JsonNode finishedPolicy;

  @Setup(Level.Trial)
  public void setUp() throws Exception {
    String built = build(AccessMode.READ_WRITE);
    finishedPolicy = new ObjectMapper().readTree(built);
    if (!finishedPolicy.toString().equals(built)) {
      throw new IllegalStateException("The baseline would not write the same document: " + built);
    }
  }

  @Benchmark
  public String sessionPolicy_jacksonOnly() {
    return finishedPolicy.toString();
  }

  @Benchmark
  public String sessionPolicy_readWrite() {
    return build(AccessMode.READ_WRITE);
  }

  @Benchmark
  public String sessionPolicy_read() {
    return build(AccessMode.READ);
  }

  private static String build(AccessMode mode) {
    return SessionPolicyBuilder.build(SessionPolicyBuilder.scopes(LOCATIONS), mode, null, null);
  }
}
