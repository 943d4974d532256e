package dev.sluice.vending.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.StandardBackends;
import dev.sluice.location.LocationPolicy;
import dev.sluice.vending.AccessMode;
import dev.sluice.vending.ClientProperties;
import dev.sluice.vending.CredentialSource;
import dev.sluice.vending.NamespaceIdentities;
import dev.sluice.vending.StorageBackends;
import dev.sluice.vending.StorageCredential;
import dev.sluice.vending.StorageProfile;
import dev.sluice.vending.StorageTimeouts;
import dev.sluice.vending.VendingService;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sts.StsClient;
import software.amazon.awssdk.services.sts.model.AssumeRoleRequest;
import software.amazon.awssdk.services.sts.model.AssumeRoleResponse;
import software.amazon.awssdk.services.sts.model.Credentials;

/**
 * A namespace's storage identity on S3, offline: what the backend accepts (and the errors naming
 * the key), the profile it derives (the catalog's but for role, external id and credential source),
 * redaction, and that the vending cache never shares a credential between two identities (nor
 * between an identity and the catalog's), through the real {@link VendingService} and {@link
 * StsCredentialVendor} with an STS that records each AssumeRole.
 */
class NamespaceIdentityS3Test {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String CATALOG_ROLE = "arn:aws:iam::111111111111:role/Catalog";
  private static final String ROLE_A = "arn:aws:iam::111111111111:role/Finance";
  private static final String ROLE_B = "arn:aws:iam::111111111111:role/Marketing";

  /** Every AssumeRole the stub STS answered: role ARN and external id. */
  private final List<String> assumed = Collections.synchronizedList(new ArrayList<>());

  private final AtomicInteger issued = new AtomicInteger();
  private final StorageBackends backends =
      StandardBackends.create().with(new S3Backend((profile, source, timeouts) -> new Sts()));
  private final NamespaceIdentities identities = backends.identities();
  private final Map<String, CredentialSource> sources =
      Map.of(
          "cat", AwsCredentialSource.staticKeys("cat", "AKIDCAT", "secret-cat"),
          "other", AwsCredentialSource.staticKeys("other", "AKIDOTHER", "secret-other"));
  private VendingService vending;

  /** STS, recording each request and minting a credential of its own each time. */
  private final class Sts implements StsClient {
    @Override
    public AssumeRoleResponse assumeRole(AssumeRoleRequest request) {
      assumed.add(request.roleArn() + " " + request.externalId());
      int n = issued.incrementAndGet();
      return AssumeRoleResponse.builder()
          .credentials(
              Credentials.builder()
                  .accessKeyId("ASIA" + n)
                  .secretAccessKey("secret-" + n)
                  .sessionToken("token-" + n)
                  .expiration(Instant.now().plus(Duration.ofHours(1)))
                  .build())
          .build();
    }

    @Override
    public String serviceName() {
      return SERVICE_NAME;
    }

    @Override
    public void close() {}
  }

  @AfterEach
  void close() {
    if (vending != null) {
      vending.close();
    }
  }

  private StorageProfile catalog(ObjectNode extra) throws Exception {
    ObjectNode info =
        (ObjectNode)
            JSON.readTree(
                "{\"storageType\":\"S3\",\"allowedLocations\":[\"s3://lake/wh\"],"
                    + "\"region\":\"us-east-1\",\"credentialSource\":\"cat\","
                    + "\"roleArn\":\""
                    + CATALOG_ROLE
                    + "\",\"externalId\":\"catalog-ext\",\"endpoint\":\"http://127.0.0.1:1\"}");
    info.setAll(extra);
    return backends.parse("lake", info, "s3://lake/wh", sources, 900).profile();
  }

  private StorageProfile catalog() throws Exception {
    return catalog(JSON.createObjectNode());
  }

  private static ObjectNode identity(String json) throws Exception {
    return (ObjectNode) JSON.readTree(json);
  }

  private NamespaceIdentities.Parsed parse(StorageProfile catalog, String json) throws Exception {
    return identities.parse(catalog, "finance", identity(json), sources);
  }

  @Test
  void anIdentityNamesARoleAndOptionallyAnExternalIdAndACredentialSource() throws Exception {
    StorageProfile catalog = catalog();
    NamespaceIdentities.Parsed parsed =
        parse(
            catalog,
            "{\"roleArn\":\""
                + ROLE_A
                + "\",\"externalId\":\"fin\",\"credentialSource\":\"other\"}");
    S3StorageProfile derived = (S3StorageProfile) parsed.profile();
    S3StorageProfile own = (S3StorageProfile) catalog;
    assertThat(derived.roleArn()).isEqualTo(ROLE_A);
    assertThat(derived.externalId()).isEqualTo("fin");
    assertThat(derived.credentialSource()).contains("other");
    assertThat(derived.identityScope()).isEqualTo("finance");
    assertThat(own.identityScope()).isEmpty();
    // Everything else stays the catalog's: locations, region, endpoint, lifetime, templates.
    assertThat(derived.allowedLocations()).isEqualTo(own.allowedLocations());
    assertThat(derived.region()).isEqualTo(own.region());
    assertThat(derived.endpoint()).isEqualTo(own.endpoint());
    assertThat(derived.durationSeconds()).isEqualTo(own.durationSeconds());
    assertThat(derived.offered()).isEqualTo(own.offered());
    // Keys sorted as stored.
    assertThat(parsed.identity().toString())
        .isEqualTo(
            "{\"credentialSource\":\"other\",\"externalId\":\"fin\",\"roleArn\":\""
                + ROLE_A
                + "\"}");
    // Without a credential source, the catalog's assumes the role; without an external id, none.
    S3StorageProfile bare =
        (S3StorageProfile) parse(catalog, "{\"roleArn\":\"" + ROLE_A + "\"}").profile();
    assertThat(bare.credentialSource()).contains("cat");
    assertThat(bare.externalId()).isNull();
  }

  @Test
  void whatTheBackendDoesNotTakeIsRefusedNamingTheKey() throws Exception {
    StorageProfile catalog = catalog();
    assertThatThrownBy(() -> parse(catalog, "{\"roleArn\":\"" + ROLE_A + "\",\"region\":\"x\"}"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Unknown field: storageIdentity.region")
        .hasMessageContaining("credentialSource, externalId, roleArn");
    assertThatThrownBy(() -> parse(catalog, "{\"externalId\":\"x\"}"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("storageIdentity.roleArn is required");
    assertThatThrownBy(() -> parse(catalog, "{\"roleArn\":\"Finance\"}"))
        .hasMessageContaining("storageIdentity.roleArn is required");
    assertThatThrownBy(() -> parse(catalog, "{\"roleArn\":\"" + ROLE_A + "\",\"externalId\":5}"))
        .hasMessageContaining("storageIdentity.externalId must be a non-empty string");
    assertThatThrownBy(
            () -> parse(catalog, "{\"roleArn\":\"" + ROLE_A + "\",\"credentialSource\":\"nope\"}"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("storageIdentity.credentialSource: unknown credential source 'nope'")
        .hasMessageContaining("[cat, other]");
    assertThatThrownBy(() -> parse(catalog, "{}"))
        .hasMessageContaining("storageIdentity must be a JSON object");
    assertThatThrownBy(() -> identities.parse(catalog, "finance", JSON.readTree("[1]"), sources))
        .hasMessageContaining("storageIdentity must be a JSON object");
    StorageProfile noSts = catalog(identity("{\"stsUnavailable\":true,\"delegation\":[]}"));
    assertThatThrownBy(() -> parse(noSts, "{\"roleArn\":\"" + ROLE_A + "\"}"))
        .hasMessageContaining("stsUnavailable");
  }

  @Test
  void aStorageTypeThatTakesNoIdentityIsNamed() throws Exception {
    StorageProfile files =
        backends
            .parse(
                "files",
                JSON.readTree("{\"storageType\":\"FILE\"}"),
                "file:///tmp/wh",
                sources,
                900)
            .profile();
    assertThatThrownBy(() -> parse(files, "{\"roleArn\":\"" + ROLE_A + "\"}"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("storageType FILE does not take a storage identity");
    assertThat(backends.identityKeys().get("FILE")).isEmpty();
    assertThat(backends.identityKeys().get("S3"))
        .containsExactlyInAnyOrder("roleArn", "externalId", "credentialSource");
  }

  @Test
  void theExternalIdIsRedactedAsTheCatalogsIs() throws Exception {
    ObjectNode identity =
        identity("{\"roleArn\":\"" + ROLE_A + "\",\"externalId\":\"fin-secret-ext\"}");
    String redacted = identities.redacted("S3", identity).toString();
    assertThat(redacted).contains(ROLE_A).contains("<redacted>").doesNotContain("fin-secret-ext");
    assertThat(identity.toString()).contains("fin-secret-ext"); // a copy was redacted
  }

  @Test
  void twoIdentitiesNeverShareACachedCredential() throws Exception {
    vending =
        new VendingService(
            backends,
            sources,
            Duration.ofMinutes(10),
            1000,
            new SimpleMeterRegistry(),
            StorageTimeouts.Provider.DEFAULT);
    StorageProfile catalog = catalog();
    StorageProfile finance = parse(catalog, "{\"roleArn\":\"" + ROLE_A + "\"}").profile();
    StorageProfile marketing =
        identities
            .parse(catalog, "marketing", identity("{\"roleArn\":\"" + ROLE_B + "\"}"), sources)
            .profile();
    // Another namespace naming finance's very role is still an identity of its own.
    StorageProfile financeAgain =
        identities
            .parse(catalog, "finance2", identity("{\"roleArn\":\"" + ROLE_A + "\"}"), sources)
            .profile();
    assertThat(List.of(catalog, finance, marketing, financeAgain)).doesNotHaveDuplicates();

    List<String> keys = new ArrayList<>();
    for (StorageProfile profile : List.of(catalog, finance, marketing, financeAgain)) {
      keys.add(vend(profile).config().get(ClientProperties.S3_ACCESS_KEY_ID));
    }
    assertThat(keys).doesNotHaveDuplicates();
    assertThat(assumed)
        .containsExactly(
            CATALOG_ROLE + " catalog-ext", ROLE_A + " null", ROLE_B + " null", ROLE_A + " null");
    // Each is cached under its own identity: asking again calls STS no more.
    for (int i = 0; i < 3; i++) {
      assertThat(vend(finance).config().get(ClientProperties.S3_ACCESS_KEY_ID))
          .isEqualTo(keys.get(1));
      assertThat(vend(catalog).config().get(ClientProperties.S3_ACCESS_KEY_ID))
          .isEqualTo(keys.get(0));
    }
    assertThat(assumed).hasSize(4);
  }

  private StorageCredential vend(StorageProfile profile) {
    SortedMap<String, String> attribution = new TreeMap<>();
    attribution.put("principal", "writer");
    attribution.put("catalog", "lake");
    attribution.put("namespace", "finance");
    attribution.put("table", "finance.t");
    List<StorageCredential> vended =
        vending.vend(
            profile,
            new LocationPolicy("lake", profile.allowedLocations()),
            "s3://lake/wh/finance/t",
            Map.of(),
            AccessMode.READ_WRITE,
            attribution);
    assertThat(vended).hasSize(1);
    return vended.get(0);
  }
}
