package dev.sluice.testing.gcp;

import static java.util.Objects.requireNonNull;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A loopback stand-in for the Google endpoints GCS credential vending touches, following Google's
 * documented behaviour: the OAuth token endpoint of service-account keys ({@code POST /token},
 * JWT-bearer grant), the Security Token Service applying Credential Access Boundaries ({@code POST
 * /v1/token}), IAM Credentials {@code generateAccessToken} (impersonation), and the Cloud Storage
 * JSON API subset google-cloud-storage's HTTP transport uses, every request of which is authorized
 * against the token's account IAM intersected with its access boundary.
 *
 * <p>Point clients at {@link #endpoint()} ({@code gcs.service.host}, {@code
 * StorageOptions.setHost}, a key's {@code token_uri}); google-auth's own calls to
 * sts/iamcredentials/oauth2.googleapis.com reach it through {@link FakeGoogleTransportFactory}
 * while it runs. Thread-safe.
 */
public final class GoogleCloudFake implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(GoogleCloudFake.class);
  private static final int MAX_LOG = 10_000;

  private final HttpServer server;
  private final ExecutorService executor;
  private final String endpoint;
  private final Accounts accounts = new Accounts();
  private final IssuedTokens tokens;
  private final ObjectStore store;
  private final List<Exchange> exchanges = new ArrayList<>();
  private final List<Refusal> refusals = new ArrayList<>();
  private final List<String> requestLog = new ArrayList<>();
  private final Map<GcsOperation, AtomicLong> counts = new ConcurrentHashMap<>();
  private final OAuthTokenEndpoint oauth;
  private final StsEndpoint sts;
  private final IamCredentialsEndpoint iam;
  private final GcsApi gcs;
  private final GcsAuthorizer authorizer;
  private final AtomicBoolean closed = new AtomicBoolean();
  private volatile Duration sourceTokenLifetime = Duration.ofHours(1);
  private volatile boolean stsUnavailable;
  private volatile boolean stalled;

  private GoogleCloudFake() throws IOException {
    Clock clock = Clock.systemUTC();
    this.tokens = new IssuedTokens(clock);
    this.store = new ObjectStore(clock);
    this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
    this.endpoint = "http://127.0.0.1:" + server.getAddress().getPort();
    this.oauth = new OAuthTokenEndpoint(accounts, tokens, () -> sourceTokenLifetime);
    this.sts = new StsEndpoint(tokens, this::record);
    this.iam = new IamCredentialsEndpoint(accounts, tokens);
    this.authorizer = new GcsAuthorizer(tokens, accounts, this::record);
    this.gcs =
        new GcsApi(
            store,
            authorizer,
            this::endpoint,
            op -> counts.computeIfAbsent(op, k -> new AtomicLong()).incrementAndGet());
    this.executor = Executors.newFixedThreadPool(8);
    server.setExecutor(executor);
    server.createContext("/", this::handle);
    server.start();
  }

  /** Starts a fake on 127.0.0.1 (a free port) and routes google-auth's Google calls to it. */
  public static GoogleCloudFake start() throws IOException {
    GoogleCloudFake fake = new GoogleCloudFake();
    FakeGoogleTransportFactory.register(fake.endpoint);
    return fake;
  }

  /** {@code http://127.0.0.1:PORT}: the GCS host, and the root of every endpoint here. */
  public String endpoint() {
    return endpoint;
  }

  /** The OAuth token URI of the accounts' keys: {@code endpoint() + "/token"}. */
  public String tokenUri() {
    return endpoint + "/token";
  }

  public void createBucket(String bucket) {
    store.createBucket(bucket);
  }

  /**
   * A service account of {@code projectId} with a fresh RSA-2048 key, holding
   * roles/storage.objectAdmin on {@code buckets} and no other role anywhere.
   */
  public ServiceAccount addServiceAccount(String email, String projectId, Set<String> buckets) {
    return accounts.add(new ServiceAccount(email, projectId, buckets, tokenUri()));
  }

  /** Grants {@code caller} roles/iam.serviceAccountTokenCreator on {@code target}. */
  public void allowImpersonation(String callerEmail, String targetEmail) {
    accounts.allowImpersonation(callerEmail, targetEmail);
  }

  /** How long tokens of the JWT grant live (default an hour); downscoped ones follow theirs. */
  public void setSourceTokenLifetime(Duration lifetime) {
    requireNonNull(lifetime, "lifetime");
    if (lifetime.isNegative() || lifetime.isZero() || lifetime.compareTo(Duration.ofHours(1)) > 0) {
      throw new IllegalArgumentException("a source token lives (0, 1h], not " + lifetime);
    }
    this.sourceTokenLifetime = lifetime;
  }

  /**
   * While false, Cloud Storage ignores downscoped tokens' access boundaries (each token still needs
   * its account's IAM, scopes and expiry): a deliberately mis-scoped store, for the storage
   * self-check's failing case. Google never does this.
   */
  public void setAccessBoundariesEnforced(boolean enforced) {
    authorizer.setBoundariesEnforced(enforced);
  }

  /** While true, the STS answers 503 UNAVAILABLE, as Google does in an outage. */
  public void setStsUnavailable(boolean unavailable) {
    this.stsUnavailable = unavailable;
  }

  /**
   * While true, every endpoint takes requests and answers none (until set false again, at most two
   * minutes), as a stalled host or a network that drops packets: what a client's own timeouts are
   * for.
   */
  public void setStalled(boolean stalled) {
    this.stalled = stalled;
  }

  /** Makes {@code token} expired now: Google answers 401 for it from then on. */
  public void expireNow(String token) {
    tokens.expireNow(requireNonNull(token, "token"));
  }

  /** Stores an object directly, bypassing authorization (test setup). */
  public void put(String bucket, String name, byte[] data) {
    store.put(bucket, name, data, null, ObjectStore.Preconditions.NONE);
  }

  /** An object's bytes, bypassing authorization; empty when there is no such object. */
  public Optional<byte[]> bytes(String bucket, String name) {
    return store.get(bucket, name).map(o -> o.data().clone());
  }

  public boolean exists(String bucket, String name) {
    return store.get(bucket, name).isPresent();
  }

  /**
   * The names in {@code bucket} starting with {@code prefix}, in order (bypassing authorization).
   */
  public List<String> names(String bucket, String prefix) {
    return store.list(bucket, prefix, null).stream().map(ObjectStore.StoredObject::name).toList();
  }

  /** Every token exchange the STS granted, oldest first. */
  public List<Exchange> exchanges() {
    synchronized (exchanges) {
      return List.copyOf(exchanges);
    }
  }

  /** The access boundary of a downscoped token; empty for any other token. */
  public Optional<Boundary> boundaryOf(String token) {
    return tokens.find(token).flatMap(IssuedTokens.Issued::boundary);
  }

  /** The account a token the fake issued belongs to. */
  public Optional<String> accountOf(String token) {
    return tokens.find(token).map(IssuedTokens.Issued::account);
  }

  /** Every Cloud Storage request refused (401/403), oldest first. */
  public List<Refusal> refusals() {
    synchronized (refusals) {
      return List.copyOf(refusals);
    }
  }

  /** Cloud Storage requests served so far, by operation (batch sub-requests by their own). */
  public Map<GcsOperation, Long> requestCounts() {
    Map<GcsOperation, Long> copy = new EnumMap<>(GcsOperation.class);
    counts.forEach((op, count) -> copy.put(op, count.get()));
    return copy;
  }

  public long requests(GcsOperation operation) {
    AtomicLong count = counts.get(operation);
    return count == null ? 0 : count.get();
  }

  /** One line per request on the wire: {@code METHOD path?query -> status} (diagnostics). */
  public List<String> requestLog() {
    synchronized (requestLog) {
      return List.copyOf(requestLog);
    }
  }

  /** Forgets exchanges, refusals, counters and the request log (tokens and objects stay). */
  public void clearRecords() {
    synchronized (exchanges) {
      exchanges.clear();
    }
    synchronized (refusals) {
      refusals.clear();
    }
    synchronized (requestLog) {
      requestLog.clear();
    }
    counts.clear();
  }

  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    FakeGoogleTransportFactory.unregister(endpoint);
    server.stop(0);
    executor.shutdownNow();
  }

  private void record(Exchange exchange) {
    synchronized (exchanges) {
      exchanges.add(exchange);
    }
  }

  private void record(Refusal refusal) {
    LOG.debug("GCS fake refused {}", refusal);
    synchronized (refusals) {
      refusals.add(refusal);
    }
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      Http.Call call = Http.read(exchange);
      long until = System.nanoTime() + Duration.ofMinutes(2).toNanos();
      while (stalled && System.nanoTime() < until) {
        try {
          Thread.sleep(20);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        }
      }
      Http.Reply reply;
      try {
        reply = route(call);
      } catch (RuntimeException e) {
        LOG.warn("GCS fake failed on {} {}", call.method(), call.rawPath(), e);
        reply = GoogleErrors.rpc(500, "INTERNAL", "fake failure: " + e, null, null);
      }
      synchronized (requestLog) {
        if (requestLog.size() < MAX_LOG) {
          requestLog.add(
              call.method()
                  + " "
                  + call.rawPath()
                  + (call.rawQuery() == null ? "" : "?" + call.rawQuery())
                  + " -> "
                  + reply.status);
        }
      }
      Http.write(exchange, reply);
    }
  }

  private Http.Reply route(Http.Call call) {
    String path = call.rawPath();
    if (path.equals("/token")) {
      return oauth.serve(call);
    }
    if (path.equals("/v1/token")) {
      return stsUnavailable
          ? GoogleErrors.rpc(
              503, "UNAVAILABLE", "The service is currently unavailable.", null, null)
          : sts.serve(call);
    }
    if (path.startsWith("/v1/projects/")) {
      return iam.serve(call);
    }
    return gcs.serve(call);
  }
}
