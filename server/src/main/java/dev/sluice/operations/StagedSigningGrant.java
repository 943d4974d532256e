package dev.sluice.operations;

import static java.util.Objects.requireNonNull;

import com.nimbusds.jwt.JWTClaimsSet;
import dev.sluice.auth.TokenService;
import java.text.ParseException;
import java.time.Clock;
import java.util.Date;
import java.util.List;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.apache.iceberg.exceptions.NotAuthorizedException;

/**
 * What lets an engine have requests signed for a table it has only staged (a stage-create, then
 * data written before the create commits: Spark's and Trino's CREATE TABLE AS SELECT). Such a table
 * has no row and no claimed locations yet, so its signing endpoint carries them: the principal who
 * staged it, the catalog, the table and its location keys, in a JWT signed with the catalog's token
 * keys (every replica verifies it) under its own issuer, so it is never accepted as a bearer token.
 * The caller must still hold the privilege on the table's name, and be the principal it names.
 */
record StagedSigningGrant(
    String principal,
    String catalog,
    TableIdentifier table,
    List<String> locationKeys,
    long expiresAtMs) {
  static final String ISSUER = "sluice:staged-table-signing";

  StagedSigningGrant {
    requireNonNull(principal, "principal");
    requireNonNull(catalog, "catalog");
    requireNonNull(table, "table");
    locationKeys = List.copyOf(locationKeys);
  }

  /** A grant for {@code table}'s {@code locationKeys}, valid for the token lifetime. */
  static String issue(
      TokenService tokens,
      Clock clock,
      String principal,
      String catalog,
      TableIdentifier table,
      List<String> locationKeys) {
    long now = clock.millis();
    JWTClaimsSet claims =
        new JWTClaimsSet.Builder()
            .issuer(ISSUER)
            .subject(principal)
            .claim("cat", catalog)
            .claim("ns", List.of(table.namespace().levels()))
            .claim("tbl", table.name())
            .claim("loc", locationKeys)
            .issueTime(new Date(now))
            .expirationTime(new Date(now + tokens.lifetime().toMillis()))
            .build();
    return tokens.signOther(claims);
  }

  /**
   * The grant in {@code token}, once its signature and expiry are checked and it names this caller,
   * catalog and table; 403 otherwise.
   */
  static StagedSigningGrant verify(
      TokenService tokens, String token, String principal, String catalog, TableIdentifier table) {
    JWTClaimsSet claims;
    try {
      claims = tokens.verifyOther(token, ISSUER);
    } catch (NotAuthorizedException e) {
      throw new ForbiddenException("Invalid staged-table signing grant: %s", e.getMessage());
    }
    StagedSigningGrant grant;
    try {
      grant =
          new StagedSigningGrant(
              claims.getSubject(),
              claims.getStringClaim("cat"),
              TableIdentifier.of(
                  Namespace.of(claims.getStringListClaim("ns").toArray(String[]::new)),
                  claims.getStringClaim("tbl")),
              claims.getStringListClaim("loc"),
              claims.getExpirationTime().getTime());
    } catch (ParseException | RuntimeException e) {
      throw new ForbiddenException("Invalid staged-table signing grant: malformed claims");
    }
    if (!grant.principal.equals(principal)
        || !grant.catalog.equals(catalog)
        || !grant.table.equals(table)) {
      throw new ForbiddenException(
          "This staged-table signing grant is for another principal or table");
    }
    return grant;
  }
}
