package dev.sluice.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.StandardBackends;
import dev.sluice.store.NamespacePath;
import dev.sluice.vending.StorageBackends;
import dev.sluice.vending.StorageProfile;
import dev.sluice.vending.s3.S3StorageProfile;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.exceptions.ServiceUnavailableException;
import org.junit.jupiter.api.Test;

/**
 * Which profile vends for a table: its namespace's identity, else the nearest ancestor's, else the
 * catalog's; an identity that no longer parses vends nothing (503), never the catalog's instead.
 */
class NamespaceStorageTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private final StorageBackends backends = StandardBackends.create();

  private StorageProfile catalog(String extra) throws Exception {
    return backends
        .parse(
            "lake",
            JSON.readTree(
                "{\"storageType\":\"S3\",\"allowedLocations\":[\"s3://lake/wh\"],"
                    + "\"region\":\"us-east-1\",\"credentialSource\":\"cat\","
                    + "\"roleArn\":\"arn:aws:iam::1:role/Catalog\""
                    + extra
                    + "}"),
            "s3://lake/wh",
            null,
            900)
        .profile();
  }

  private static String role(StorageProfile profile) {
    return ((S3StorageProfile) profile).roleArn();
  }

  @Test
  void theNearestNamespaceWithAnIdentityWinsElseTheCatalogs() throws Exception {
    StorageProfile catalog = catalog("");
    Map<NamespacePath, String> stored = new LinkedHashMap<>();
    stored.put(NamespacePath.of("finance"), "{\"roleArn\":\"arn:aws:iam::1:role/Finance\"}");
    stored.put(
        NamespacePath.of("finance", "eu", "payroll"),
        "{\"roleArn\":\"arn:aws:iam::1:role/Payroll\"}");
    NamespaceStorage storage = NamespaceStorage.of(catalog, stored, backends.identities());

    assertThat(storage.profileFor(Namespace.of("marketing"))).isSameAs(catalog);
    assertThat(storage.profileFor(Namespace.of("fin"))).isSameAs(catalog); // a prefix is not above
    StorageProfile finance = storage.profileFor(Namespace.of("finance"));
    assertThat(role(finance)).isEqualTo("arn:aws:iam::1:role/Finance");
    assertThat(finance.identityScope()).isEqualTo("finance");
    assertThat(storage.profileFor(Namespace.of("finance", "eu"))).isSameAs(finance);
    StorageProfile payroll = storage.profileFor(Namespace.of("finance", "eu", "payroll"));
    assertThat(role(payroll)).isEqualTo("arn:aws:iam::1:role/Payroll");
    assertThat(storage.profileFor(Namespace.of("finance", "eu", "payroll", "2025")))
        .isSameAs(payroll);
    assertThat(storage.identities()).containsOnlyKeys(stored.keySet());
    assertThat(NamespaceStorage.none(catalog).profileFor(Namespace.of("finance")))
        .isSameAs(catalog);
  }

  @Test
  void anIdentityThatNoLongerParsesVendsNothingBelowIt() throws Exception {
    // The catalog gave up STS after the identity was set: no role can be assumed any more.
    StorageProfile catalog = catalog(",\"stsUnavailable\":true,\"delegation\":[]");
    Map<NamespacePath, String> stored =
        Map.of(NamespacePath.of("finance"), "{\"roleArn\":\"arn:aws:iam::1:role/Finance\"}");
    NamespaceStorage storage = NamespaceStorage.of(catalog, stored, backends.identities());
    assertThatThrownBy(() -> storage.profileFor(Namespace.of("finance", "eu")))
        .isInstanceOf(ServiceUnavailableException.class)
        .hasMessageContaining("set on finance")
        .hasMessageContaining("stsUnavailable");
    assertThat(storage.profileFor(Namespace.of("marketing"))).isSameAs(catalog);
    assertThat(storage.unusable(NamespacePath.of("finance"))).contains("stsUnavailable");
    assertThat(storage.identities().get(NamespacePath.of("finance"))).isNull();
  }
}
