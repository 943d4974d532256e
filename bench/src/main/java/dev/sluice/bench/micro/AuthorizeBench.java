package dev.sluice.bench.micro;

import dev.sluice.audit.AuditLog;
import dev.sluice.auth.AuthenticatedPrincipal;
import dev.sluice.authz.Authorizer;
import dev.sluice.authz.Caller;
import dev.sluice.authz.Privilege;
import dev.sluice.store.PrincipalRecord;
import java.util.List;
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
 * The authorization decision of a loadTable by a non-root principal (TABLE_READ_PROPERTIES on
 * bench.t0, implied by a TABLE_READ_DATA grant on namespace bench through principal role → catalog
 * role), as IcebergRoutes makes it: {@code caller(...)} then {@code require(...)}.
 *
 * <ul>
 *   <li>{@code authorize_warm}: the normal request path; roles and grants come from the
 *       Authorizer's cache (which expires entries after 1 s, so about one call a second still reads
 *       the store).
 *   <li>{@code authorize_cold} (baseline): {@code invalidate()} first, so both the principal's
 *       roles and the grants are read from H2 (two queries), as after any access change.
 * </ul>
 *
 * The decision is queued to the real AuditLog, whose batches are dropped (see {@link
 * DiscardingAuditStore}).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class AuthorizeBench {
  private final LongAdder audited = new LongAdder();
  private StoreFixture fixture;
  private AuditLog audit;
  private Authorizer authz;
  private AuthenticatedPrincipal principal;

  @Setup(Level.Trial)
  public void setUp() {
    fixture = StoreFixture.open();
    fixture.grantAnalyst();
    audit =
        new AuditLog(
            DiscardingAuditStore.create(audited),
            new io.micrometer.core.instrument.simple.SimpleMeterRegistry());
    authz = new Authorizer(fixture.store.access(), audit);
    PrincipalRecord analyst =
        fixture.store.access().getPrincipal(StoreFixture.PRINCIPAL).orElseThrow();
    // What the Authenticator makes of the analyst's bearer token (Iceberg clients ask for scope
    // "catalog").
    principal =
        AuthenticatedPrincipal.internal(
            StoreFixture.PRINCIPAL,
            analyst.id(),
            "client",
            List.of("catalog"),
            Long.MAX_VALUE,
            analyst.credentialVersion());
    decide(); // throws ForbiddenException if the grants do not reach the table
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    audit.close();
    fixture.close();
  }

  @Benchmark
  public Caller authorize_warm() {
    return decide();
  }

  @Benchmark
  public Caller authorize_cold() {
    authz.invalidate();
    return decide();
  }

  private Caller decide() {
    Caller caller = authz.caller(principal, "req");
    authz.require(
        caller,
        "loadTable",
        StoreFixture.CATALOG,
        StoreFixture.TABLE,
        Privilege.TABLE_READ_PROPERTIES);
    return caller;
  }
}
