package dev.sluice.vending.r2;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The R2 temporary-credential algorithm, byte for byte. */
class R2TokenMinterTest {
  private static final String PARENT_ID = "a1b2c3d4e5f60718293a4b5c6d7e8f90";
  private static final String PARENT_SECRET = "0f".repeat(32);
  private static final String ACCOUNT = "0123456789abcdef0123456789abcdef";

  private static R2TokenMinter.Minted golden(long iat) {
    return R2TokenMinter.mint(
        PARENT_ID,
        PARENT_SECRET,
        ACCOUNT,
        ACCOUNT + ".r2.cloudflarestorage.com",
        "warehouse",
        R2TokenMinter.Scope.READ_ONLY,
        List.of("db/t/"),
        iat,
        1767226500L);
  }

  @Test
  void reproducesTheGoldenVector() {
    // Computed independently of this project (issue 12); the lead re-derived it in Python.
    R2TokenMinter.Minted minted = golden(1767225600L);
    assertThat(minted.secretAccessKey())
        .isEqualTo("df14f288bdcf31d133e883f7bc51605295c7cf499c4ee931e73154b0d334fe70");
    assertThat(minted.accessKeyId()).isEqualTo(PARENT_ID);
    assertThat(
            new String(Base64.getDecoder().decode(minted.sessionToken()), StandardCharsets.UTF_8))
        .isEqualTo("jwt/" + minted.jwt());
  }

  @Test
  void theClaimsAreCompactAndInTheContractsOrder() throws Exception {
    String jwt = golden(1767225600L).jwt();
    String[] parts = jwt.split("\\.");
    assertThat(parts).hasSize(3);
    Base64.Decoder url = Base64.getUrlDecoder();
    assertThat(new String(url.decode(parts[0]), StandardCharsets.UTF_8))
        .isEqualTo("{\"alg\":\"HS256\",\"typ\":\"JWT\"}");
    assertThat(new String(url.decode(parts[1]), StandardCharsets.UTF_8))
        .isEqualTo(
            "{\"bucket\":\"warehouse\",\"scope\":\"object-read-only\","
                + "\"paths\":{\"prefixPaths\":[\"db/t/\"],\"objectPaths\":[]},"
                + "\"sub\":\""
                + ACCOUNT
                + "\",\"iss\":\""
                + PARENT_ID
                + "\",\"aud\":\""
                + ACCOUNT
                + ".r2.cloudflarestorage.com\",\"iat\":1767225600,\"exp\":1767226500}");
    assertThat(jwt).doesNotContain("=").doesNotContain("+").doesNotContain("/");
    JsonNode claims = new ObjectMapper().readTree(url.decode(parts[1]));
    assertThat(claims.fieldNames())
        .toIterable()
        .containsExactly("bucket", "scope", "paths", "sub", "iss", "aud", "iat", "exp");
  }

  @Test
  void theSameInputsMintTheSameCredentialAndAnotherIatAnother() {
    assertThat(golden(1767225600L)).isEqualTo(golden(1767225600L));
    assertThat(golden(1767225601L).secretAccessKey())
        .isNotEqualTo(golden(1767225600L).secretAccessKey());
    R2TokenMinter.Minted writer =
        R2TokenMinter.mint(
            PARENT_ID,
            PARENT_SECRET,
            ACCOUNT,
            ACCOUNT + ".r2.cloudflarestorage.com",
            "warehouse",
            R2TokenMinter.Scope.READ_WRITE,
            List.of("db/t/"),
            1767225600L,
            1767226500L);
    assertThat(writer.secretAccessKey()).isNotEqualTo(golden(1767225600L).secretAccessKey());
    assertThat(writer.jwt()).isNotEqualTo(golden(1767225600L).jwt());
  }

  @Test
  void theAudienceIsTheConfiguredEndpointsHostAJurisdictionsToo() {
    assertThat(R2TokenMinter.audience("https://" + ACCOUNT + ".r2.cloudflarestorage.com"))
        .isEqualTo(ACCOUNT + ".r2.cloudflarestorage.com");
    assertThat(R2TokenMinter.audience("https://" + ACCOUNT + ".EU.r2.cloudflarestorage.com:443/"))
        .isEqualTo(ACCOUNT + ".eu.r2.cloudflarestorage.com");
  }

  @Test
  void theParentSecretNeverAppears() {
    R2TokenMinter.Minted minted = golden(1767225600L);
    assertThat(minted.jwt() + minted.sessionToken() + minted.secretAccessKey() + minted)
        .doesNotContain(PARENT_SECRET);
    assertThat(minted.toString()).doesNotContain(minted.secretAccessKey());
  }
}
