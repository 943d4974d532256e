package dev.sluice.bench.micro;

import dev.sluice.audit.AuditLog;
import dev.sluice.auth.Authenticator;
import dev.sluice.auth.TokenEndpoint;
import dev.sluice.auth.TokenService;
import dev.sluice.auth.TokenThrottle;
import dev.sluice.auth.VerifiedSecrets;
import dev.sluice.management.AccessAdmin;
import dev.sluice.store.AuditedRequest;
import dev.sluice.store.PrincipalRecord;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
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
 * A client_credentials token request (issue 16: Trino asks for a token on almost every call).
 *
 * <ul>
 *   <li>{@code tokenGrant_cached}: {@code TokenEndpoint.grant} with the right secret, verified
 *       before: the principal read from H2, the HMAC key and cache hit, the HS256 token.
 *   <li>{@code tokenGrant_cold} (baseline): the same after {@code invalidateAll()}, so the secret
 *       is checked with PBKDF2 (100,000 iterations), as every request was before the cache.
 *   <li>{@code verifySecret_cached} / {@code verifySecret_cold} (baseline): {@code
 *       VerifiedSecrets.verify} alone against a fixed stored record: the verification's own cost,
 *       without the store read and the token.
 * </ul>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class TokenGrantBench {
  private StoreFixture fixture;
  private AuditLog audit;
  private VerifiedSecrets endpointSecrets;
  private TokenEndpoint endpoint;
  private TokenEndpoint.Request request;
  private VerifiedSecrets secrets;
  private PrincipalRecord stored;
  private String clientId;
  private String secret;

  @Setup(Level.Trial)
  public void setUp() {
    fixture = StoreFixture.open();
    AccessAdmin.NewCredentials created =
        new AccessAdmin(fixture.store, () -> {})
            .createPrincipal(StoreFixture.PRINCIPAL, Map.of(), List.of());
    stored = created.principal();
    clientId = stored.clientId();
    secret = created.clientSecret();
    TokenService tokens = new TokenService(fixture.store, Duration.ofHours(1), Clock.systemUTC());
    tokens.start();
    SimpleMeterRegistry metrics = new SimpleMeterRegistry();
    audit = new AuditLog(DiscardingAuditStore.create(new LongAdder()), metrics);
    endpointSecrets = new VerifiedSecrets(VerifiedSecrets.DEFAULT_TTL);
    endpoint =
        new TokenEndpoint(
            fixture.store,
            new Authenticator(fixture.store, tokens, null),
            new TokenThrottle(TokenThrottle.Limits.DEFAULT),
            endpointSecrets,
            audit,
            metrics);
    request =
        new TokenEndpoint.Request(
            Map.of(
                "grant_type",
                "client_credentials",
                "client_id",
                clientId,
                "client_secret",
                secret,
                "scope",
                "catalog"),
            null,
            null,
            "127.0.0.1",
            "bench",
            AuditedRequest.from("127.0.0.1", "bench", null));
    secrets = new VerifiedSecrets(VerifiedSecrets.DEFAULT_TTL);
    if (tokenGrant_cold().accessToken().isEmpty() || !verifySecret_cold()) {
      throw new IllegalStateException("the principal's secret did not verify");
    }
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    audit.close();
    fixture.close();
  }

  @Benchmark
  public TokenEndpoint.Issued tokenGrant_cached() {
    return endpoint.grant(request);
  }

  @Benchmark
  public TokenEndpoint.Issued tokenGrant_cold() {
    endpointSecrets.invalidateAll();
    return endpoint.grant(request);
  }

  @Benchmark
  public boolean verifySecret_cached() {
    return secrets.verify(clientId, secret, stored);
  }

  @Benchmark
  public boolean verifySecret_cold() {
    secrets.invalidateAll();
    return secrets.verify(clientId, secret, stored);
  }
}
