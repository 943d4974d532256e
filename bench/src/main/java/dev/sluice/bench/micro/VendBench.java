package dev.sluice.bench.micro;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.StandardBackends;
import dev.sluice.location.LocationPolicy;
import dev.sluice.vending.AccessMode;
import dev.sluice.vending.CredentialSource;
import dev.sluice.vending.StorageBackends;
import dev.sluice.vending.StorageCredential;
import dev.sluice.vending.StorageProfile;
import dev.sluice.vending.StorageTimeouts;
import dev.sluice.vending.VendingService;
import dev.sluice.vending.s3.AwsCredentialSource;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * {@code VendingService.vend(...)} for one S3 table, called as TableCredentials calls it (a fresh
 * attribution map per request). This measures the credential cache, not STS: STS is a stub that
 * answers at once without network ({@link StubSts}).
 *
 * <ul>
 *   <li>{@code vend_cached}: the same caller and table every call, so the credential is in the
 *       cache.
 *   <li>{@code vend_miss} (baseline): a new principal every call, so every call misses and vends
 *       (policy, AssumeRole request, stub answer, client properties, cache insert); once the cache
 *       holds its 10,000 entries each insert also evicts, as on a busy server.
 * </ul>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class VendBench {
  private static final String CATALOG = "bench";
  private static final String WAREHOUSE = "s3://sluice-bench/warehouse";
  private static final String TABLE_LOCATION = WAREHOUSE + "/bench/t0";
  private static final Map<String, String> TABLE_PROPERTIES =
      Map.of("write.format.default", "parquet", "write.parquet.compression-codec", "zstd");

  private VendingService vending;
  private StorageProfile profile;
  private LocationPolicy policy;
  private long principals;

  @Setup(Level.Trial)
  public void setUp() throws Exception {
    String storage =
        "{\"storageType\":\"S3\",\"allowedLocations\":[\""
            + WAREHOUSE
            + "\"],"
            + "\"roleArn\":\"arn:aws:iam::123456789012:role/TableAccess\",\"region\":\"us-east-1\","
            + "\"endpoint\":\"http://127.0.0.1:9\",\"pathStyleAccess\":true,\"credentialSource\":\"bench\"}";
    Map<String, CredentialSource> sources =
        Map.of("bench", AwsCredentialSource.staticKeys("bench", "AKIDBENCH", "not-a-secret"));
    // Parsed as the server parses a stored catalog, so the profile is the server's.
    StorageBackends backends = StandardBackends.create().with(StubSts.backend());
    profile =
        backends
            .parse(CATALOG, new ObjectMapper().readTree(storage), WAREHOUSE, sources, 900)
            .profile();
    policy = new LocationPolicy(CATALOG, List.of(WAREHOUSE));
    SimpleMeterRegistry metrics = new SimpleMeterRegistry();
    // The server's defaults: storage.vendingCache {ttlCapSeconds: 1800, maxEntries: 10000}.
    vending =
        new VendingService(
            backends,
            sources,
            Duration.ofSeconds(1800),
            10_000,
            metrics,
            StorageTimeouts.Provider.DEFAULT);
    if (vend_cached().isEmpty() || vend_miss().isEmpty()) {
      throw new IllegalStateException("Nothing vended: check the profile and locations");
    }
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    vending.close();
  }

  @Benchmark
  public List<StorageCredential> vend_cached() {
    return vend("analyst");
  }

  @Benchmark
  public List<StorageCredential> vend_miss() {
    return vend("analyst-" + principals++);
  }

  private List<StorageCredential> vend(String principal) {
    SortedMap<String, String> attribution = new TreeMap<>();
    attribution.put("principal", principal);
    attribution.put("catalog", CATALOG);
    attribution.put("namespace", "bench");
    attribution.put("table", "bench.t0");
    return vending.vend(
        profile, policy, TABLE_LOCATION, TABLE_PROPERTIES, AccessMode.READ_WRITE, attribution);
  }
}
