package dev.sluice.operations;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.auth.TokenService;
import dev.sluice.store.SigningKey;
import dev.sluice.store.Store;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.apache.iceberg.exceptions.NotAuthorizedException;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A staged table's grant: for one endpoint (signing or refresh), one principal, catalog and table,
 * until it expires; never a bearer token, and every change to it refused.
 */
class StagedTableGrantTest {
  private static final Duration LIFETIME = Duration.ofHours(12);
  private static final TableIdentifier TABLE = TableIdentifier.of("ns", "ctas");
  private static final TableMetadata METADATA =
      TableMetadata.newTableMetadata(
          new Schema(Types.NestedField.required(1, "id", Types.LongType.get())),
          PartitionSpec.unpartitioned(),
          "s3://bucket/wh/ns/ctas",
          Map.of(
              TableProperties.WRITE_DATA_LOCATION,
              "s3://bucket/wh/ns/ctas/elsewhere",
              "owner",
              "not a location"));

  private final AtomicLong nowMs = new AtomicLong(1_700_000_000_000L);
  private final Clock clock =
      new Clock() {
        @Override
        public ZoneOffset getZone() {
          return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
          return this;
        }

        @Override
        public Instant instant() {
          return Instant.ofEpochMilli(nowMs.get());
        }
      };

  private final List<SigningKey> keys = new CopyOnWriteArrayList<>();
  private final Store store =
      (Store)
          Proxy.newProxyInstance(
              Store.class.getClassLoader(),
              new Class<?>[] {Store.class},
              (proxy, method, args) ->
                  switch (method.getName()) {
                    case "signingKeys" -> List.copyOf(keys);
                    case "ensureSigningKey" -> {
                      keys.add(0, (SigningKey) args[0]);
                      yield List.copyOf(keys);
                    }
                    default -> throw new UnsupportedOperationException(method.getName());
                  });
  private TokenService tokens;

  @BeforeEach
  void start() {
    tokens = new TokenService(store, Duration.ofHours(1), clock);
    tokens.start();
  }

  private String issue(StagedTableGrant.Purpose purpose) {
    return StagedTableGrant.issue(
        tokens, clock, LIFETIME, purpose, "alice", "lake", TABLE, METADATA);
  }

  private StagedTableGrant verify(
      String token, StagedTableGrant.Purpose purpose, String principal, String catalog) {
    return StagedTableGrant.verify(tokens, token, purpose, principal, catalog, TABLE);
  }

  @Test
  void aGrantNamesItsPurposePrincipalTableAndTheStagedLocationsOnly() {
    String token = issue(StagedTableGrant.Purpose.CREDENTIALS);
    StagedTableGrant grant = verify(token, StagedTableGrant.Purpose.CREDENTIALS, "alice", "lake");
    assertThat(grant.purpose()).isEqualTo(StagedTableGrant.Purpose.CREDENTIALS);
    assertThat(grant.principal()).isEqualTo("alice");
    assertThat(grant.catalog()).isEqualTo("lake");
    assertThat(grant.table()).isEqualTo(TABLE);
    assertThat(grant.location()).isEqualTo("s3://bucket/wh/ns/ctas");
    // Only the location-bearing properties travel: nothing else of the table's is disclosed.
    assertThat(grant.locationProperties())
        .isEqualTo(Map.of(TableProperties.WRITE_DATA_LOCATION, "s3://bucket/wh/ns/ctas/elsewhere"));
    assertThat(grant.expiresAtMs()).isEqualTo(nowMs.get() + LIFETIME.toMillis());
  }

  @Test
  void aSigningGrantIsNoRefreshGrantAndTheOtherWayRound() {
    String signing = issue(StagedTableGrant.Purpose.SIGN);
    String refresh = issue(StagedTableGrant.Purpose.CREDENTIALS);
    assertThat(verify(signing, StagedTableGrant.Purpose.SIGN, "alice", "lake").purpose())
        .isEqualTo(StagedTableGrant.Purpose.SIGN);
    assertThatThrownBy(() -> verify(signing, StagedTableGrant.Purpose.CREDENTIALS, "alice", "lake"))
        .isInstanceOf(ForbiddenException.class)
        .hasMessageContaining("for the sign endpoint, not the credentials endpoint");
    assertThatThrownBy(() -> verify(refresh, StagedTableGrant.Purpose.SIGN, "alice", "lake"))
        .isInstanceOf(ForbiddenException.class)
        .hasMessageContaining("for the credentials endpoint, not the sign endpoint");
  }

  @Test
  void aGrantServesOnlyItsPrincipalItsCatalogAndItsTable() {
    String token = issue(StagedTableGrant.Purpose.CREDENTIALS);
    assertThatThrownBy(() -> verify(token, StagedTableGrant.Purpose.CREDENTIALS, "bob", "lake"))
        .isInstanceOf(ForbiddenException.class)
        .hasMessageContaining("another principal or table");
    assertThatThrownBy(() -> verify(token, StagedTableGrant.Purpose.CREDENTIALS, "alice", "pond"))
        .isInstanceOf(ForbiddenException.class)
        .hasMessageContaining("another principal or table");
    assertThatThrownBy(
            () ->
                StagedTableGrant.verify(
                    tokens,
                    token,
                    StagedTableGrant.Purpose.CREDENTIALS,
                    "alice",
                    "lake",
                    TableIdentifier.of("ns", "ctas2")))
        .isInstanceOf(ForbiddenException.class)
        .hasMessageContaining("another principal or table");
  }

  @Test
  void anExpiredGrantIsRefused() {
    String token = issue(StagedTableGrant.Purpose.CREDENTIALS);
    nowMs.addAndGet(LIFETIME.toMillis() - 1);
    assertThat(verify(token, StagedTableGrant.Purpose.CREDENTIALS, "alice", "lake")).isNotNull();
    nowMs.addAndGet(1);
    assertThatThrownBy(() -> verify(token, StagedTableGrant.Purpose.CREDENTIALS, "alice", "lake"))
        .isInstanceOf(ForbiddenException.class)
        .hasMessageContaining("expired");
  }

  @Test
  void aTamperedGrantIsRefused() {
    String token = issue(StagedTableGrant.Purpose.SIGN);
    String[] parts = token.split("\\.");
    // The same signature over claims that say "credentials": the signature no longer matches.
    String claims =
        new String(Base64.getUrlDecoder().decode(parts[1]), StandardCharsets.UTF_8)
            .replace("\"use\":\"sign\"", "\"use\":\"credentials\"");
    assertThat(claims).contains("\"use\":\"credentials\"");
    String forged =
        parts[0]
            + "."
            + Base64.getUrlEncoder()
                .withoutPadding()
                .encodeToString(claims.getBytes(StandardCharsets.UTF_8))
            + "."
            + parts[2];
    assertThatThrownBy(() -> verify(forged, StagedTableGrant.Purpose.CREDENTIALS, "alice", "lake"))
        .isInstanceOf(ForbiddenException.class)
        .hasMessageStartingWith("Invalid staged-table grant");
    assertThatThrownBy(
            () -> verify("not.a.jwt", StagedTableGrant.Purpose.CREDENTIALS, "alice", "lake"))
        .isInstanceOf(ForbiddenException.class);
  }

  @Test
  void aGrantIsNeverABearerTokenNorABearerTokenAGrant() {
    String grant = issue(StagedTableGrant.Purpose.CREDENTIALS);
    assertThatThrownBy(() -> tokens.verify(grant)).isInstanceOf(NotAuthorizedException.class);
    String bearer = tokens.issue("alice", "p-alice", "alice", List.of(), 0);
    assertThatThrownBy(() -> verify(bearer, StagedTableGrant.Purpose.CREDENTIALS, "alice", "lake"))
        .isInstanceOf(ForbiddenException.class);
  }

  @Test
  void aGrantSignedWithAnotherKeyIsRefused() {
    String token = issue(StagedTableGrant.Purpose.CREDENTIALS);
    byte[] material = new byte[32];
    new SecureRandom().nextBytes(material);
    // Another deployment's keys under the same key id: the signature does not verify here.
    keys.set(0, new SigningKey(keys.get(0).kid(), Base64.getEncoder().encodeToString(material), 0));
    TokenService other = new TokenService(store, Duration.ofHours(1), clock);
    other.start();
    assertThatThrownBy(
            () ->
                StagedTableGrant.verify(
                    other, token, StagedTableGrant.Purpose.CREDENTIALS, "alice", "lake", TABLE))
        .isInstanceOf(ForbiddenException.class);
  }
}
