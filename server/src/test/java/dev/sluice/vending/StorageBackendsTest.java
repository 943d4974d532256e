package dev.sluice.vending;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.StandardBackends;
import dev.sluice.location.StorageLocation;
import dev.sluice.vending.VendingServiceTest.FakeBackend;
import dev.sluice.vending.VendingServiceTest.FakeProfile;
import dev.sluice.vending.VendingServiceTest.FakeSource;
import dev.sluice.vending.azure.AzureBackend;
import dev.sluice.vending.file.FileBackend;
import dev.sluice.vending.r2.R2Backend;
import dev.sluice.vending.s3.AwsCredentialSource;
import dev.sluice.vending.s3.S3Backend;
import dev.sluice.vending.s3.S3StorageProfile;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.iceberg.io.FileIO;
import org.junit.jupiter.api.Test;

/**
 * The registry: the one place that dispatches on storageType, checks allowedLocations' schemes and
 * credential sources (existing, of the backend's own type), and parses the YAML's sources.
 */
class StorageBackendsTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final StorageBackends BACKENDS =
      new StorageBackends(List.of(new FileBackend(), new S3Backend(), new FakeBackend()));
  private static final Map<String, CredentialSource> SOURCES =
      Map.of(
          "rgw",
          AwsCredentialSource.staticKeys("rgw", "AKID", "secret"),
          "fk",
          new FakeSource("fk", "k"));

  private static ObjectNode s3(String allowed, String source) {
    ObjectNode info = JSON.createObjectNode();
    info.put("storageType", "s3");
    info.putArray("allowedLocations").add(allowed);
    info.put("roleArn", "arn:aws:iam:::role/x");
    info.put("region", "us-east-1");
    info.put("credentialSource", source);
    return info;
  }

  private static StorageBackends.Parsed parse(ObjectNode info) {
    return BACKENDS.parse("cat", info, "s3://b/base", SOURCES, 900);
  }

  @Test
  void parsesThroughTheBackendOfItsType() {
    StorageBackends.Parsed parsed = parse(s3("s3://b/wh", "rgw"));
    assertThat(parsed.config().get("storageType").asText()).isEqualTo("S3");
    assertThat(parsed.profile().storageType()).isEqualTo("S3");
    assertThat(parsed.profile().allowedLocations()).containsExactly("s3://b/wh");
    assertThat(parsed.profile().credentialSource()).contains("rgw");
    ObjectNode fake = JSON.createObjectNode().put("storageType", "fake").put("version", 7);
    StorageBackends.Parsed defaulted = BACKENDS.parse("cat", fake, "fake://b/base", SOURCES, 900);
    assertThat(defaulted.profile())
        .isEqualTo(new FakeProfile("cat", List.of("fake://b/base"), Optional.empty(), 7, true));
    assertThat(defaulted.config().get("allowedLocations").get(0).asText())
        .isEqualTo("fake://b/base");
  }

  @Test
  void anUnknownStorageTypeIsRefusedNamingTheSupportedOnes() {
    ObjectNode info = s3("s3://b/wh", "rgw").put("storageType", "GCS");
    assertThatThrownBy(() -> parse(info))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("storageConfigInfo.storageType: GCS")
        .hasMessageContaining("[FILE, S3, FAKE]");
    assertThatThrownBy(() -> parse(JSON.createObjectNode()))
        .hasMessageContaining("storageConfigInfo.storageType");
    assertThatThrownBy(() -> BACKENDS.parse("cat", null, "s3://b/base", SOURCES, 900))
        .hasMessageContaining("storageConfigInfo");
  }

  @Test
  void anAllowedLocationOfAnotherSchemeIsRefusedNamingTheKey() {
    for (String location : List.of("gs://b/wh", "fake://b/wh", "file:/tmp/wh", "s3:///wh")) {
      assertThatThrownBy(() -> parse(s3(location, "rgw")))
          .as(location)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("storageConfigInfo.allowedLocations")
          .hasMessageContaining(location)
          .hasMessageContaining("[s3, s3a]");
    }
  }

  @Test
  void anUnknownCredentialSourceIsNamed() {
    assertThatThrownBy(() -> parse(s3("s3://b/wh", "nope")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("storageConfigInfo.credentialSource")
        .hasMessageContaining("'nope'")
        .hasMessageContaining("[fk, rgw]");
  }

  @Test
  void aCredentialSourceOfAnotherBackendsTypeIsRefused() {
    assertThatThrownBy(() -> parse(s3("s3://b/wh", "fk")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("storageConfigInfo.credentialSource")
        .hasMessageContaining("'fk' is a fake-key source")
        .hasMessageContaining("storageType S3 takes [static, default-chain, web-identity]");
    ObjectNode fake =
        JSON.createObjectNode().put("storageType", "FAKE").put("credentialSource", "rgw");
    assertThatThrownBy(() -> BACKENDS.parse("cat", fake, "fake://b/base", SOURCES, 900))
        .hasMessageContaining("'rgw' is a static source")
        .hasMessageContaining("storageType FAKE takes [fake-key]");
    fake.put("credentialSource", "fk");
    assertThat(BACKENDS.parse("cat", fake, "fake://b/base", SOURCES, 900).profile())
        .extracting(StorageProfile::credentialSource)
        .isEqualTo(Optional.of("fk"));
  }

  @Test
  void parseSourceBuildsEveryBackendsSourceTypes() {
    assertThat(
            BACKENDS.parseSource(
                "rgw", Map.of("type", "Static", "accessKeyId", "A", "secretAccessKey", "S")))
        .isEqualTo(AwsCredentialSource.staticKeys("rgw", "A", "S"));
    assertThat(BACKENDS.parseSource("mine", Map.of("type", "fake-key", "key", "v")))
        .isEqualTo(new FakeSource("mine", "v"));
  }

  @Test
  void parseSourceRefusesUnknownTypesAndKeys() {
    assertThatThrownBy(() -> BACKENDS.parseSource("x", Map.of("type", "magic")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("storage.credentialSources.x.type")
        .hasMessageContaining("magic")
        .hasMessageContaining("fake-key");
    assertThatThrownBy(() -> BACKENDS.parseSource("x", Map.of()))
        .hasMessageContaining("storage.credentialSources.x.type");
    assertThatThrownBy(
            () ->
                BACKENDS.parseSource(
                    "x", Map.of("type", "static", "accessKeyId", "A", "region", "r")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("storage.credentialSources.x.region");
    // A key of another backend's source type is unknown to this one.
    assertThatThrownBy(() -> BACKENDS.parseSource("x", Map.of("type", "fake-key", "roleArn", "a")))
        .hasMessageContaining("storage.credentialSources.x.roleArn")
        .hasMessageContaining("[key]");
  }

  @Test
  void twoBackendsOfOneTypeOrOneSourceTypeAreRefused() {
    assertThatThrownBy(() -> new StorageBackends(List.of(new FakeBackend(), new FakeBackend())))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Two backends for storageType FAKE");
    assertThatThrownBy(() -> new StorageBackends(List.of(new FakeBackend(), new FakeTwin())))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("credential source type fake-key");
  }

  @Test
  void withReplacesTheBackendOfItsType() throws Exception {
    FakeBackend replacement = new FakeBackend();
    StorageBackends replaced = BACKENDS.with(replacement);
    assertThat(replaced.storageTypes()).containsExactly("FILE", "S3", "FAKE");
    FakeProfile profile = new FakeProfile("cat", List.of("fake://b/wh"), Optional.empty(), 1, true);
    try (CredentialVendor vendor =
        replaced
            .openVendor(
                profile,
                SOURCES,
                new VendorMetrics(new SimpleMeterRegistry(), "f"),
                StorageTimeouts.Provider.DEFAULT)
            .orElseThrow()) {
      assertThat(replacement.opened).containsExactly((VendingServiceTest.FakeVendor) vendor);
    }
  }

  @Test
  void aProfileOfNoRegisteredBackendCannotBeOpened() {
    StorageBackends s3Only = new StorageBackends(List.of(new S3Backend()));
    FakeProfile profile = new FakeProfile("cat", List.of("fake://b/wh"), Optional.empty(), 1, true);
    assertThatThrownBy(
            () ->
                s3Only.openVendor(
                    profile,
                    SOURCES,
                    new VendorMetrics(new SimpleMeterRegistry(), "f"),
                    StorageTimeouts.Provider.DEFAULT))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("No backend registered");
  }

  /** Another backend that claims the fake's credential source type under its own storageType. */
  private static final class FakeTwin implements StorageBackend<FakeProfile> {
    @Override
    public Set<String> configKeys() {
      return Set.of();
    }

    private final FakeBackend delegate = new FakeBackend();

    @Override
    public String storageType() {
      return "TWIN";
    }

    @Override
    public Class<FakeProfile> profileType() {
      return FakeProfile.class;
    }

    @Override
    public Set<String> schemes() {
      return Set.of("twin");
    }

    @Override
    public List<CredentialSourceType> credentialSourceTypes() {
      return List.of(
          new CredentialSourceType(
              "fake-key", Set.of(), (name, fields) -> new FakeSource(name, "")));
    }

    @Override
    public FakeProfile parse(Input input) {
      return delegate.parse(input);
    }

    @Override
    public Optional<CredentialVendor> openVendor(
        FakeProfile profile,
        CredentialSource source,
        VendorMetrics metrics,
        StorageTimeouts.Provider timeouts) {
      return Optional.empty();
    }

    @Override
    public FileIO openCatalogIO(
        FakeProfile profile, CredentialSource source, StorageTimeouts.CatalogIo timeouts) {
      throw new UnsupportedOperationException();
    }
  }

  @Test
  void aBackendWhoseSpellingsOfOnePlaceTheLocationKeyTellsApartIsRefused() {
    StorageBackend<?> lying =
        new Respelled(new SameStorage("s3n://bucket/path", "s3://bucket/path"));
    assertThatThrownBy(() -> new StorageBackends(List.of(lying)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("s3n://bucket/path")
        .hasMessageContaining("StorageLocation");
  }

  @Test
  void everySpellingTheLocationKeyFoldsIsDeclaredByAShippedBackend() {
    List<SameStorage> declared =
        List.of(new S3Backend(), new R2Backend(), new AzureBackend()).stream()
            .flatMap(b -> b.sameStorage().stream())
            .toList();
    assertThat(declared).allMatch(SameStorage::keyedAsOne);
    Set<String> declaredSchemes =
        declared.stream()
            .map(same -> same.location().substring(0, same.location().indexOf(':')))
            .collect(Collectors.toSet());
    assertThat(declaredSchemes).containsAll(StorageLocation.foldedSchemes());
    // Registration accepts them all.
    new StorageBackends(List.of(new S3Backend(), new AzureBackend()));
    new StorageBackends(List.of(new R2Backend()));
  }

  /** S3's backend, but saying that {@code same} are one place. */
  private static final class Respelled implements StorageBackend<S3StorageProfile> {
    @Override
    public Set<String> configKeys() {
      return s3.configKeys();
    }

    private final S3Backend s3 = new S3Backend();
    private final SameStorage same;

    Respelled(SameStorage same) {
      this.same = same;
    }

    @Override
    public List<SameStorage> sameStorage() {
      return List.of(same);
    }

    @Override
    public String storageType() {
      return s3.storageType();
    }

    @Override
    public Class<S3StorageProfile> profileType() {
      return s3.profileType();
    }

    @Override
    public Set<String> schemes() {
      return s3.schemes();
    }

    @Override
    public List<CredentialSourceType> credentialSourceTypes() {
      return s3.credentialSourceTypes();
    }

    @Override
    public S3StorageProfile parse(Input input) {
      return s3.parse(input);
    }

    @Override
    public Optional<CredentialVendor> openVendor(
        S3StorageProfile profile,
        CredentialSource source,
        VendorMetrics metrics,
        StorageTimeouts.Provider timeouts) {
      return s3.openVendor(profile, source, metrics, timeouts);
    }

    @Override
    public FileIO openCatalogIO(
        S3StorageProfile profile, CredentialSource source, StorageTimeouts.CatalogIo timeouts) {
      return s3.openCatalogIO(profile, source, timeouts);
    }
  }

  /**
   * What the storage-types answer marks required is required: a definition of each backend without
   * a field it marks (or, for a type that takes one, without a credential source) is refused naming
   * that key. Every backend's form fields are keys it takes.
   */
  @Test
  void requiredFormFieldsAndCredentialSourcesAreRequiredByTheParse() {
    StorageBackends standard = StandardBackends.create();
    Map<String, Map<String, Object>> minimal =
        Map.of(
            "S3",
            Map.of(
                "region", "us-east-1", "roleArn", "arn:aws:iam::1:role/r", "credentialSource", "s"),
            "R2",
            Map.of(
                "endpoint",
                "https://0123456789abcdef0123456789abcdef.r2.cloudflarestorage.com",
                "credentialSource",
                "s"),
            "GCS",
            Map.of("credentialSource", "s"),
            "AZURE",
            Map.of("credentialSource", "s"));
    Map<String, String> locations =
        Map.of(
            "S3",
            "s3://b/w",
            "R2",
            "s3://b/w",
            "GCS",
            "gs://b/w",
            "AZURE",
            "abfss://tables@sluiceacct.dfs.core.windows.net/w");
    standard
        .formFields()
        .forEach(
            (type, fields) -> {
              for (StorageField field : fields) {
                assertThat(standard.configKeys().get(type)).as(type).contains(field.key());
              }
              if (!minimal.containsKey(type)) {
                return;
              }
              java.util.List<String> required = new java.util.ArrayList<>();
              fields.stream().filter(StorageField::required).forEach(f -> required.add(f.key()));
              if (standard.takesCredentialSource(type)) {
                required.add("credentialSource");
              }
              assertThat(required).as(type).isNotEmpty();
              for (String key : required) {
                ObjectNode info = JSON.createObjectNode().put("storageType", type);
                info.putArray("allowedLocations").add(locations.get(type));
                minimal
                    .get(type)
                    .forEach(
                        (k, v) -> {
                          if (!k.equals(key)) {
                            info.put(k, String.valueOf(v));
                          }
                        });
                assertThatThrownBy(
                        () -> standard.parse("cat", info, locations.get(type), null, 900))
                    .as(type + " without " + key)
                    .hasMessageContaining(key);
              }
            });
  }
}
