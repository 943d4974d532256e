package dev.sluice.bench.micro;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.StandardBackends;
import dev.sluice.vending.AccessMode;
import dev.sluice.vending.CredentialSource;
import dev.sluice.vending.CredentialVendor;
import dev.sluice.vending.StorageBackends;
import dev.sluice.vending.StorageCredential;
import dev.sluice.vending.StorageTimeouts;
import dev.sluice.vending.VendingRequest;
import dev.sluice.vending.VendorMetrics;
import dev.sluice.vending.s3.AwsCredentialSource;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.List;
import java.util.Map;
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
 * One credential from a backend's vendor, without the cache: what a cache miss costs beyond the
 * provider's network time.
 *
 * <ul>
 *   <li>{@code mint_r2}: R2's temporary credential, minted locally (claims JSON, HMAC-SHA256,
 *       SHA-256, base64, client properties); issue 12 asks for at most 20 µs.
 *   <li>{@code mint_s3Sts} (baseline): S3's vend with a stub STS that answers at once ({@link
 *       StubSts}): session policy, AssumeRole request, SDK call path, client properties.
 * </ul>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class MintBench {
  private static final String ACCOUNT = "0123456789abcdef0123456789abcdef";
  private static final String LOCATION = "s3://sluice-bench/warehouse/bench/t0";

  private CredentialVendor r2;
  private CredentialVendor s3;
  private VendingRequest request;

  @Setup(Level.Trial)
  public void setUp() throws Exception {
    Map<String, CredentialSource> sources =
        Map.of(
            "bench",
            AwsCredentialSource.staticKeys(
                "bench", "a1b2c3d4e5f60718293a4b5c6d7e8f90", "0f".repeat(32)));
    StorageBackends backends = StandardBackends.create().with(StubSts.backend());
    VendorMetrics metrics = new VendorMetrics(new SimpleMeterRegistry(), "bench");
    ObjectMapper json = new ObjectMapper();
    String r2Storage =
        "{\"storageType\":\"R2\",\"endpoint\":\"https://"
            + ACCOUNT
            + ".r2.cloudflarestorage.com\",\"credentialSource\":\"bench\"}";
    String s3Storage =
        "{\"storageType\":\"S3\",\"roleArn\":\"arn:aws:iam::123456789012:role/TableAccess\","
            + "\"region\":\"us-east-1\",\"endpoint\":\"http://127.0.0.1:9\",\"pathStyleAccess\":true,"
            + "\"credentialSource\":\"bench\"}";
    String base = "s3://sluice-bench/warehouse";
    r2 =
        backends
            .openVendor(
                backends.parse("r2", json.readTree(r2Storage), base, sources, 900).profile(),
                sources,
                metrics,
                StorageTimeouts.Provider.DEFAULT)
            .orElseThrow();
    s3 =
        backends
            .openVendor(
                backends.parse("s3", json.readTree(s3Storage), base, sources, 900).profile(),
                sources,
                metrics,
                StorageTimeouts.Provider.DEFAULT)
            .orElseThrow();
    TreeMap<String, String> attribution = new TreeMap<>();
    attribution.put("principal", "analyst");
    attribution.put("catalog", "bench");
    attribution.put("namespace", "bench");
    attribution.put("table", "bench.t0");
    request =
        new VendingRequest(
            LOCATION, List.of(LOCATION), AccessMode.READ_WRITE, "analyst", attribution);
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    r2.close();
    s3.close();
  }

  @Benchmark
  public List<StorageCredential> mint_r2() {
    return r2.vend(request);
  }

  @Benchmark
  public List<StorageCredential> mint_s3Sts() {
    return s3.vend(request);
  }
}
