package dev.sluice.bench.micro;

import dev.sluice.auth.AuthenticatedPrincipal;
import dev.sluice.auth.TokenService;
import java.time.Clock;
import java.time.Duration;
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
import org.openjdk.jmh.annotations.TearDown;

/**
 * {@code TokenService.verify(token)}, which memoizes tokens it has verified (keyed by the token
 * text; the expiry is still checked on every call).
 *
 * <ul>
 *   <li>{@code verifyToken_cached}: a client's repeat requests with one token: a cache hit.
 *   <li>{@code verifyToken_fresh} (baseline): every call verifies a token this TokenService has
 *       never seen (parse, HS256 check, claims, cache insert), i.e. verification without the memo.
 *       Issuing a token per call would cost more than verifying it, so {@value #FRESH} tokens are
 *       issued in setup and walked in order; after each pass a new TokenService (its memo empty;
 *       {@code start()} is one key query, about 1/{@value #FRESH} of a call) takes over, so no call
 *       is ever a hit. {@value #FRESH} is the memo's size, so inserts never evict.
 * </ul>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class TokenBench {
  static final int FRESH = 10_000;
  private static final Duration LIFETIME = Duration.ofHours(1);

  private StoreFixture fixture;
  private TokenService service;
  private String token;
  private String[] fresh;
  private TokenService firstSight;
  private int next;

  @Setup(Level.Trial)
  public void setUp() {
    fixture = StoreFixture.open();
    service = newService();
    List<String> scopes = List.of("catalog");
    token = service.issue("analyst", "p-analyst", "client", scopes, 1);
    fresh = new String[FRESH];
    for (int i = 0; i < FRESH; i++) {
      fresh[i] = service.issue("analyst", "p-analyst", "client", scopes, 1);
    }
    firstSight = newService();
    if (!verifyToken_cached().name().equals("analyst")
        || !verifyToken_fresh().name().equals("analyst")) {
      throw new IllegalStateException("Tokens did not verify");
    }
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    fixture.close();
  }

  @Benchmark
  public AuthenticatedPrincipal verifyToken_cached() {
    return service.verify(token);
  }

  @Benchmark
  public AuthenticatedPrincipal verifyToken_fresh() {
    if (next == FRESH) {
      firstSight = newService();
      next = 0;
    }
    return firstSight.verify(fresh[next++]);
  }

  private TokenService newService() {
    TokenService s = new TokenService(fixture.store, LIFETIME, Clock.systemUTC());
    s.start();
    return s;
  }
}
