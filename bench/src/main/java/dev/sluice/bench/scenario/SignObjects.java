package dev.sluice.bench.scenario;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.bench.catalog.SignRequests;
import dev.sluice.bench.http.HttpConnection;
import dev.sluice.bench.http.HttpResult;
import dev.sluice.bench.http.RequestEncoder;
import dev.sluice.bench.load.Operation;
import dev.sluice.bench.load.OperationFailed;
import dev.sluice.bench.load.RequestSource;
import dev.sluice.bench.load.Workload;
import java.io.IOException;
import java.net.URI;
import java.util.Arrays;
import java.util.UUID;

/**
 * Remote signing (issue 17): every client asks the catalog to sign S3 requests for objects of one
 * table ({@code bench.t0}), alternately a ranged GET and a PUT of a data file, each with its own
 * key and invocation id, as Iceberg's S3FileIO does when it reads and writes a table. The caller
 * needs TABLE_READ_DATA for a GET and TABLE_WRITE_DATA for a PUT (RBAC, cached 1 s), and every key
 * is checked against the table's locations (cached 1 s). Where to sign, the store's endpoint, the
 * region and the addressing style come from the table's load response, as a client reads them. Only
 * targets whose catalog offers remote signing run it.
 */
public final class SignObjects implements Scenario {
  /** Distinct request bodies per client, cycled: built before the run, not on the hot path. */
  private static final int BODIES_PER_CLIENT = 256;

  @Override
  public String name() {
    return "sign-objects";
  }

  @Override
  public String description() {
    return "POST …/tables/t0/sign: S3 requests for objects in bench.t0, GET and PUT alternately"
        + " (TABLE_READ_DATA / TABLE_WRITE_DATA)";
  }

  @Override
  public boolean appliesTo(ScenarioContext context) throws IOException {
    return signing(load(context)).path("s3.remote-signing-enabled").asText().equals("true");
  }

  @Override
  public Workload prepare(ScenarioContext context) throws IOException {
    JsonNode table = load(context);
    JsonNode config = signing(table);
    String signPath = signPath(context, config.path("s3.signer.endpoint").asText());
    String region = config.path("client.region").asText();
    String objects =
        objectBase(
            table.path("metadata").path("location").asText(),
            config.path("s3.endpoint").asText(),
            config.path("s3.path-style-access").asBoolean(false));
    byte[][][] bodies = new byte[context.clients()][BODIES_PER_CLIENT][];
    for (int c = 0; c < bodies.length; c++) {
      for (int i = 0; i < BODIES_PER_CLIENT; i++) {
        String method = i % 2 == 0 ? "GET" : "PUT";
        String uri =
            objects
                + "/data/00000-"
                + c
                + "-"
                + UUID.randomUUID()
                + "-0-"
                + String.format("%05d", i)
                + ".parquet";
        bodies[c][i] = SignRequests.body(region, method, uri, UUID.randomUUID().toString());
      }
    }
    // One of each, checked fully before the run: a signature, not just a 200.
    for (int i = 0; i < 2; i++) {
      JsonNode signed = context.setup().signed(signPath, bodies[0][i]);
      String auth = signed.path("headers").path("Authorization").path(0).asText();
      if (!auth.startsWith("AWS4-HMAC-SHA256 ")) {
        throw new IOException("No SigV4 signature in the sign response: " + signed);
      }
    }
    String[] labels = new String[BODIES_PER_CLIENT];
    Arrays.fill(labels, "sign via " + signPath);
    return new Workload() {
      @Override
      public Operation operation(int client, HttpConnection http) {
        return new Operation() {
          private int next;

          @Override
          public int run() throws IOException {
            byte[] body = bodies[client][next++ % BODIES_PER_CLIENT];
            HttpResult result = http.postJson(signPath, body);
            if (!result.ok()) {
              throw new OperationFailed("sign via " + signPath, result);
            }
            return 0;
          }
        };
      }

      @Override
      public RequestSource requests(int client, RequestEncoder encoder) {
        byte[][] requests = new byte[BODIES_PER_CLIENT][];
        for (int i = 0; i < BODIES_PER_CLIENT; i++) {
          requests[i] = encoder.postJson(signPath, bodies[client][i]);
        }
        int[] next = {0};
        return RequestSource.of(labels, requests, bound -> next[0]++ % bound);
      }
    };
  }

  private static JsonNode load(ScenarioContext context) throws IOException {
    return context.setup().loadTable(Fixture.READ_NAMESPACE, Fixture.readTable(0));
  }

  private static JsonNode signing(JsonNode loadResponse) {
    return loadResponse.path("config");
  }

  /** The signer endpoint as Iceberg resolves it: absolute, or relative to the catalog URI. */
  private static String signPath(ScenarioContext context, String signerEndpoint) {
    if (signerEndpoint.isEmpty()) {
      throw new IllegalStateException("The load response names no s3.signer.endpoint");
    }
    if (signerEndpoint.startsWith("http://") || signerEndpoint.startsWith("https://")) {
      return URI.create(signerEndpoint).getRawPath();
    }
    String base = context.endpoint().basePath();
    return base + (signerEndpoint.startsWith("/") ? "" : "/") + signerEndpoint;
  }

  /** The HTTP URL of the table's location on the store, path-style or virtual-hosted. */
  static String objectBase(String location, String endpoint, boolean pathStyle) {
    URI s3 = URI.create(location);
    if (!"s3".equals(s3.getScheme()) || endpoint.isEmpty()) {
      throw new IllegalStateException(
          "Not an S3 table on an S3 endpoint: " + location + " at " + endpoint);
    }
    URI store = URI.create(endpoint.replaceAll("/$", ""));
    String bucket = s3.getHost();
    String key = s3.getRawPath().replaceAll("/$", "");
    if (pathStyle) {
      return store + "/" + bucket + key;
    }
    return store.getScheme() + "://" + bucket + "." + store.getRawAuthority() + key;
  }
}
