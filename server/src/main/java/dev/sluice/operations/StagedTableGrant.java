package dev.sluice.operations;

import static java.util.Objects.requireNonNull;

import com.nimbusds.jwt.JWTClaimsSet;
import dev.sluice.auth.TokenService;
import dev.sluice.location.LocationPolicy;
import java.text.ParseException;
import java.time.Clock;
import java.time.Duration;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.apache.iceberg.exceptions.NotAuthorizedException;

/**
 * What lets an engine work on a table it has only staged (a stage-create, then data written before
 * the create commits: Spark's and Trino's CREATE TABLE AS SELECT). Such a table has no row and no
 * claimed locations yet, so its signing endpoint and its credentials refresh endpoint carry them:
 * the principal who staged it, the catalog, the table, its location and location-bearing
 * properties, and the one endpoint it is for ({@link Purpose}), in a JWT signed with the catalog's
 * token keys (every replica verifies it) under its own issuer, so it is never accepted as a bearer
 * token. A grant for signing is refused at the refresh endpoint and the other way round. The caller
 * must still authenticate with its own token, be the principal the grant names, and hold the
 * privileges at each use.
 */
record StagedTableGrant(
    Purpose purpose,
    String principal,
    String catalog,
    TableIdentifier table,
    String location,
    Map<String, String> locationProperties,
    long expiresAtMs) {
  static final String ISSUER = "sluice:staged-table";

  /** The one endpoint a grant is for: its {@code use} claim. */
  enum Purpose {
    SIGN("sign"),
    CREDENTIALS("credentials");

    private final String claim;

    Purpose(String claim) {
      this.claim = claim;
    }
  }

  StagedTableGrant {
    requireNonNull(purpose, "purpose");
    requireNonNull(principal, "principal");
    requireNonNull(catalog, "catalog");
    requireNonNull(table, "table");
    requireNonNull(location, "location");
    locationProperties = Map.copyOf(locationProperties);
  }

  /**
   * A grant for {@code purpose} to {@code principal}, naming {@code table} of {@code catalog} as
   * staged with {@code metadata} (its location and location-bearing properties), valid for {@code
   * lifetime}.
   */
  static String issue(
      TokenService tokens,
      Clock clock,
      Duration lifetime,
      Purpose purpose,
      String principal,
      String catalog,
      TableIdentifier table,
      TableMetadata metadata) {
    long now = clock.millis();
    JWTClaimsSet claims =
        new JWTClaimsSet.Builder()
            .issuer(ISSUER)
            .subject(principal)
            .claim("use", purpose.claim)
            .claim("cat", catalog)
            .claim("ns", List.of(table.namespace().levels()))
            .claim("tbl", table.name())
            .claim("loc", metadata.location())
            .claim("props", locationProperties(metadata.properties()))
            .issueTime(new Date(now))
            .expirationTime(new Date(now + lifetime.toMillis()))
            .build();
    return tokens.signOther(claims);
  }

  /** Only the properties that name a location ({@link LocationPolicy#LOCATION_PROPERTIES}). */
  private static Map<String, Object> locationProperties(Map<String, String> properties) {
    Map<String, Object> named = new TreeMap<>();
    for (String key : LocationPolicy.LOCATION_PROPERTIES) {
      if (properties.get(key) != null) {
        named.put(key, properties.get(key));
      }
    }
    return named;
  }

  /**
   * The grant in {@code token}, once its signature and expiry are checked and it is for {@code
   * purpose}, this caller, catalog and table; 403 otherwise.
   */
  static StagedTableGrant verify(
      TokenService tokens,
      String token,
      Purpose purpose,
      String principal,
      String catalog,
      TableIdentifier table) {
    JWTClaimsSet claims;
    try {
      claims = tokens.verifyOther(token, ISSUER);
    } catch (NotAuthorizedException e) {
      throw new ForbiddenException("Invalid staged-table grant: %s", e.getMessage());
    }
    StagedTableGrant grant;
    try {
      grant =
          new StagedTableGrant(
              purposeOf(claims.getStringClaim("use")),
              claims.getSubject(),
              claims.getStringClaim("cat"),
              TableIdentifier.of(
                  Namespace.of(claims.getStringListClaim("ns").toArray(String[]::new)),
                  claims.getStringClaim("tbl")),
              claims.getStringClaim("loc"),
              strings(claims.getJSONObjectClaim("props")),
              claims.getExpirationTime().getTime());
    } catch (ParseException | RuntimeException e) {
      throw new ForbiddenException("Invalid staged-table grant: malformed claims");
    }
    if (grant.purpose != purpose) {
      throw new ForbiddenException(
          "This staged-table grant is for the %s endpoint, not the %s endpoint",
          grant.purpose.claim, purpose.claim);
    }
    if (!grant.principal.equals(principal)
        || !grant.catalog.equals(catalog)
        || !grant.table.equals(table)) {
      throw new ForbiddenException("This staged-table grant is for another principal or table");
    }
    return grant;
  }

  private static Purpose purposeOf(String claim) {
    for (Purpose purpose : Purpose.values()) {
      if (purpose.claim.equals(claim)) {
        return purpose;
      }
    }
    throw new IllegalArgumentException("Unknown purpose: " + claim);
  }

  private static Map<String, String> strings(Map<String, Object> claim) {
    Map<String, String> out = new LinkedHashMap<>();
    claim.forEach(
        (key, value) -> {
          if (!LocationPolicy.LOCATION_PROPERTIES.contains(key) || !(value instanceof String)) {
            throw new IllegalArgumentException("Not a location property: " + key);
          }
          out.put(key, (String) value);
        });
    return out;
  }
}
