package dev.sluice.testing.gcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import java.net.http.HttpResponse;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The JWT-bearer grant of the fake's token endpoint, checked the way Google documents it. */
class OAuthTokenEndpointTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private GoogleCloudFake fake;
  private ServiceAccount vendor;
  private ServiceAccount stranger;

  @BeforeEach
  void start() throws Exception {
    fake = GoogleCloudFake.start();
    vendor =
        fake.addServiceAccount("vendor@lakehouse.iam.gserviceaccount.com", "lakehouse", Set.of());
    stranger =
        fake.addServiceAccount("stranger@lakehouse.iam.gserviceaccount.com", "lakehouse", Set.of());
  }

  @AfterEach
  void stop() {
    fake.close();
  }

  @Test
  void aWellFormedAssertionGetsAToken() throws Exception {
    HttpResponse<String> response = grant(assertion(vendor, vendor, claims(vendor).build()));

    assertThat(response.statusCode()).isEqualTo(200);
    JsonNode body = JSON.readTree(response.body());
    assertThat(body.path("token_type").asText()).isEqualTo("Bearer");
    assertThat(body.path("expires_in").asLong()).isEqualTo(3600);
    assertThat(fake.accountOf(body.path("access_token").asText())).contains(vendor.email());
  }

  @Test
  void anAssertionSignedWithAnotherAccountsKeyIsRefused() throws Exception {
    // The header names the vendor's key, the signature is the stranger's.
    assertInvalidGrant(
        grant(assertion(vendor, stranger, claims(vendor).build())), "Invalid JWT Signature");
  }

  @Test
  void anAssertionForAnUnknownKeyIdIsRefused() throws Exception {
    assertInvalidGrant(
        grant(assertion(stranger, vendor, claims(vendor).build())), "Invalid JWT Signature");
  }

  @Test
  void anAssertionLivingMoreThanAnHourIsRefused() throws Exception {
    Instant now = Instant.now();
    JWTClaimsSet claims =
        claims(vendor)
            .issueTime(Date.from(now))
            .expirationTime(Date.from(now.plusSeconds(3601)))
            .build();

    assertInvalidGrant(grant(assertion(vendor, vendor, claims)), "short-lived token");
  }

  @Test
  void anExpiredAssertionIsRefused() throws Exception {
    Instant then = Instant.now().minusSeconds(7200);
    JWTClaimsSet claims =
        claims(vendor)
            .issueTime(Date.from(then))
            .expirationTime(Date.from(then.plusSeconds(3600)))
            .build();

    assertInvalidGrant(grant(assertion(vendor, vendor, claims)), "short-lived token");
  }

  @Test
  void anAssertionForAnotherAudienceIsRefused() throws Exception {
    JWTClaimsSet claims = claims(vendor).audience(fake.tokenUri()).build();

    assertInvalidGrant(grant(assertion(vendor, vendor, claims)), "Failed audience check");
  }

  @Test
  void anAssertionWithoutAStorageScopeIsRefused() throws Exception {
    JWTClaimsSet claims =
        claims(vendor).claim("scope", "https://www.googleapis.com/auth/bigquery").build();
    HttpResponse<String> response = grant(assertion(vendor, vendor, claims));

    assertThat(response.statusCode()).isEqualTo(400);
    assertThat(JSON.readTree(response.body()).path("error").asText()).isEqualTo("invalid_scope");
  }

  @Test
  void anotherGrantTypeIsRefused() throws Exception {
    HttpResponse<String> response =
        GcpFixtures.post(
            fake.tokenUri(),
            "application/x-www-form-urlencoded",
            GcpFixtures.form(Map.of("grant_type", "client_credentials")));

    assertThat(response.statusCode()).isEqualTo(400);
    assertThat(JSON.readTree(response.body()).path("error").asText())
        .isEqualTo("unsupported_grant_type");
  }

  private JWTClaimsSet.Builder claims(ServiceAccount account) {
    Instant now = Instant.now();
    return new JWTClaimsSet.Builder()
        .issuer(account.email())
        .audience(OAuthTokenEndpoint.AUDIENCE)
        .issueTime(Date.from(now))
        .expirationTime(Date.from(now.plusSeconds(3600)))
        .claim("scope", GcpFixtures.CLOUD_PLATFORM);
  }

  /** An RS256 assertion whose header names {@code named}'s key, signed with {@code signer}'s. */
  private static String assertion(ServiceAccount named, ServiceAccount signer, JWTClaimsSet claims)
      throws Exception {
    SignedJWT jwt =
        new SignedJWT(
            new JWSHeader.Builder(JWSAlgorithm.RS256).keyID(named.privateKeyId()).build(), claims);
    jwt.sign(new RSASSASigner(privateKey(signer)));
    return jwt.serialize();
  }

  private static PrivateKey privateKey(ServiceAccount account) throws Exception {
    String pem = JSON.readTree(account.keyJson()).path("private_key").asText();
    String base64 = pem.replaceAll("-----[A-Z ]+-----", "").replaceAll("\\s", "");
    return KeyFactory.getInstance("RSA")
        .generatePrivate(new PKCS8EncodedKeySpec(Base64.getDecoder().decode(base64)));
  }

  private HttpResponse<String> grant(String assertion) throws Exception {
    return GcpFixtures.post(
        fake.tokenUri(),
        "application/x-www-form-urlencoded",
        GcpFixtures.form(
            Map.of("grant_type", OAuthTokenEndpoint.JWT_BEARER, "assertion", assertion)));
  }

  private static void assertInvalidGrant(HttpResponse<String> response, String description)
      throws Exception {
    assertThat(response.statusCode()).isEqualTo(400);
    JsonNode body = JSON.readTree(response.body());
    assertThat(body.path("error").asText()).isEqualTo("invalid_grant");
    assertThat(body.path("error_description").asText()).contains(description);
  }
}
