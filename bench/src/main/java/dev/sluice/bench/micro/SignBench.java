package dev.sluice.bench.micro;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.StandardBackends;
import dev.sluice.bench.catalog.SignRequests;
import dev.sluice.location.LocationPolicy;
import dev.sluice.vending.AccessMode;
import dev.sluice.vending.ClientProperties;
import dev.sluice.vending.CredentialSource;
import dev.sluice.vending.RequestSigner;
import dev.sluice.vending.RequestTarget;
import dev.sluice.vending.SignedRequest;
import dev.sluice.vending.StorageBackends;
import dev.sluice.vending.StorageProfile;
import dev.sluice.vending.StorageRequest;
import dev.sluice.vending.StorageTimeouts;
import dev.sluice.vending.VendingService;
import dev.sluice.vending.s3.AwsCredentialSource;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.URI;
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
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.identity.spi.AwsCredentialsIdentity;
import software.amazon.awssdk.identity.spi.AwsSessionCredentialsIdentity;

/**
 * Remote signing of one S3 request (issues 17 and 31), no network: what Sluice adds to the AWS
 * SDK's own SigV4 signer, including the scoped identity every signature is made with (an STS
 * session under the table's session policy, from the vending cache; STS is {@link StubSts}, so a
 * miss would not touch the network either, but after the first call every one is a hit). The
 * requests are what Iceberg's S3FileIO sends to a signer (path-style, {@code @Param request};
 * headers from {@link SignRequests}, as the load scenario sends them): a ranged GET of a data file,
 * and a PUT of one.
 *
 * <ul>
 *   <li>{@code sign_sdk} (baseline): the SDK's {@link AwsV4HttpSigner} alone, on an {@link
 *       SdkHttpRequest} built once (what an SDK client hands its signer), with the properties
 *       Sluice sets (service s3, no double encoding, no normalisation, unsigned payload).
 *   <li>{@code sign_sluice}: Sluice's {@link RequestSigner} for an S3 catalog with a role and
 *       {@code "delegation": ["remote-signing"]}: {@code target} (S3RequestParser: endpoint, path,
 *       query, headers) then {@link VendingService#sign} (the table's scoped session from the
 *       cache, the SDK request built from the engine's, unsigned headers set aside, the same
 *       signer): what the sign route does per request besides JSON, RBAC and the locations check.
 *   <li>{@code sign_sluiceSignOnly} and {@code sign_sluiceParseOnly}: the two halves of {@code
 *       sign_sluice} alone.
 * </ul>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class SignBench {
  private static final String CATALOG = "bench";
  private static final String ENDPOINT = "http://127.0.0.1:7480";
  private static final String REGION = "us-east-1";
  private static final String WAREHOUSE = "s3://sluice-bench/bench_sign";
  private static final String OBJECT =
      ENDPOINT
          + "/sluice-bench/bench_sign/bench/t0/data/"
          + "00000-0-5f1d3a4e-8c2b-4e7a-9d61-2b7f0c9e4a13-0-00001.parquet";
  private static final String ACCESS_KEY = "AKIDBENCHEXAMPLE0001";
  private static final String SECRET_KEY = "not-a-secret-not-a-secret-not-a-secret0";
  private static final List<String> TABLE_LOCATIONS = List.of(WAREHOUSE + "/bench/t0");
  private static final Map<String, AccessMode> MODES =
      Map.of("GET", AccessMode.READ, "PUT", AccessMode.READ_WRITE);

  /** GET (a ranged read of a data file) or PUT (an upload of one). */
  @Param({"GET", "PUT"})
  public String request;

  private RequestSigner sluice;
  private VendingService vending;
  private StorageProfile profile;
  private LocationPolicy policy;
  private final SortedMap<String, String> attribution = new TreeMap<>();
  private StorageRequest storageRequest;
  private SdkHttpRequest sdkRequest;
  private AwsV4HttpSigner sdk;
  private AwsCredentialsIdentity identity;

  @Setup(Level.Trial)
  public void setUp() throws Exception {
    String storage =
        "{\"storageType\":\"S3\",\"allowedLocations\":[\""
            + WAREHOUSE
            + "\"],\"region\":\""
            + REGION
            + "\",\"endpoint\":\""
            + ENDPOINT
            + "\",\"pathStyleAccess\":true,\"credentialSource\":\"bench\","
            + "\"roleArn\":\"arn:aws:iam::123456789012:role/TableAccess\","
            + "\"delegation\":[\"remote-signing\"]}";
    Map<String, CredentialSource> sources =
        Map.of("bench", AwsCredentialSource.staticKeys("bench", ACCESS_KEY, SECRET_KEY));
    // Parsed and opened as the server does for a stored catalog, with STS stubbed.
    StorageBackends backends = StandardBackends.create().with(StubSts.backend());
    profile =
        backends
            .parse(CATALOG, new ObjectMapper().readTree(storage), WAREHOUSE, sources, 900)
            .profile();
    policy = new LocationPolicy(CATALOG, List.of(WAREHOUSE));
    vending =
        new VendingService(
            backends,
            sources,
            Duration.ofSeconds(1800),
            10_000,
            new SimpleMeterRegistry(),
            StorageTimeouts.Provider.DEFAULT);
    sluice = vending.signer(profile);
    attribution.put("principal", "analyst");
    attribution.put("catalog", CATALOG);
    attribution.put("namespace", "bench");
    attribution.put("table", "bench.t0");
    storageRequest =
        new StorageRequest(request, URI.create(OBJECT), REGION, engineHeaders(request), null);

    // The SDK's share: the signed headers only (Sluice leaves the per-attempt ones unsigned).
    SdkHttpRequest.Builder http =
        SdkHttpRequest.builder().method(SdkHttpMethod.fromValue(request)).uri(URI.create(OBJECT));
    engineHeaders(request)
        .forEach(
            (name, values) -> {
              if (!name.startsWith("amz-sdk-") && !name.equals("Range")) {
                http.putHeader(name, values);
              }
            });
    sdkRequest = http.build();
    sdk = AwsV4HttpSigner.create();
    // The baseline signs with the same kind of identity: the table's (stubbed) STS session.
    Map<String, String> session =
        vending
            .signingIdentityUncached(
                profile, policy, TABLE_LOCATIONS.get(0), AccessMode.READ, attribution)
            .orElseThrow()
            .get(0)
            .config();
    identity =
        AwsSessionCredentialsIdentity.create(
            session.get(ClientProperties.S3_ACCESS_KEY_ID),
            session.get(ClientProperties.S3_SECRET_ACCESS_KEY),
            session.get(ClientProperties.S3_SESSION_TOKEN));

    RequestTarget target = sign_sluiceParseOnly();
    if (!target.paths().get(0).startsWith("sluice-bench/bench_sign/bench/t0/data/")) {
      throw new IllegalStateException("Parsed the wrong path: " + target.paths());
    }
    String sluiceAuth = sign_sluice().headers().get("Authorization").get(0);
    String sdkAuth = sign_sdk().request().firstMatchingHeader("Authorization").orElseThrow();
    // Same signed headers either way: the two sign the same request, not two different ones.
    if (!signedHeaders(sluiceAuth).equals(signedHeaders(sdkAuth))) {
      throw new IllegalStateException(
          "The SDK and Sluice signed different headers: " + sdkAuth + " vs " + sluiceAuth);
    }
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    vending.close();
  }

  @Benchmark
  public software.amazon.awssdk.http.auth.spi.signer.SignedRequest sign_sdk() {
    return sdk.sign(
        r ->
            r.identity(identity)
                .request(sdkRequest)
                .payload(null)
                .putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, "s3")
                .putProperty(AwsV4HttpSigner.REGION_NAME, REGION)
                .putProperty(AwsV4HttpSigner.DOUBLE_URL_ENCODE, false)
                .putProperty(AwsV4HttpSigner.NORMALIZE_PATH, false)
                .putProperty(AwsV4HttpSigner.PAYLOAD_SIGNING_ENABLED, false)
                .putProperty(AwsV4HttpSigner.CHUNK_ENCODING_ENABLED, false));
  }

  @Benchmark
  public SignedRequest sign_sluice() {
    RequestTarget target = sluice.target(storageRequest);
    return vending.sign(
        profile, policy, TABLE_LOCATIONS, target.needed(), attribution, storageRequest);
  }

  @Benchmark
  public SignedRequest sign_sluiceSignOnly() {
    return vending.sign(
        profile, policy, TABLE_LOCATIONS, MODES.get(request), attribution, storageRequest);
  }

  @Benchmark
  public RequestTarget sign_sluiceParseOnly() {
    return sluice.target(storageRequest);
  }

  private static Map<String, List<String>> engineHeaders(String method) {
    return SignRequests.headers(method, "9a6f3c1e-2b4d-8e5f-0a7b-c3d2e1f0a9b8");
  }

  private static String signedHeaders(String authorization) {
    int start = authorization.indexOf("SignedHeaders=");
    return authorization.substring(start, authorization.indexOf(',', start));
  }
}
