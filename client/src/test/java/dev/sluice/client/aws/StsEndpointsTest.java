package dev.sluice.client.aws;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StsEndpointsTest {
  private static final URI CUSTOM = URI.create("https://sts.internal.example");

  private static boolean global(
      String region, boolean fips, boolean dualstack, URI custom, String regionalEndpoints) {
    return StsEndpoints.useGlobal(
        new StsEndpoints.Input(region, fips, dualstack, custom, regionalEndpoints));
  }

  @Test
  void plainCommercialWithTheVariableUnsetIsGlobal() {
    assertThat(global("us-east-1", false, false, null, null)).isTrue();
    assertThat(global("eu-west-1", false, false, null, null)).isTrue();
  }

  @Test
  void plainCommercialWithLegacyIsGlobal() {
    assertThat(global("eu-west-1", false, false, null, "legacy")).isTrue();
    assertThat(global("eu-west-1", false, false, null, " LEGACY ")).isTrue();
  }

  @Test
  void regionalEndpointsRegionalIsRegional() {
    assertThat(global("eu-west-1", false, false, null, "regional")).isFalse();
  }

  @Test
  void anUnknownRegionalEndpointsValueIsLeftToTheSdk() {
    assertThat(global("eu-west-1", false, false, null, "sometimes")).isFalse();
  }

  @Test
  void anotherPartitionIsRegional() {
    assertThat(global("cn-north-1", false, false, null, null)).isFalse();
    assertThat(global("us-gov-west-1", false, false, null, null)).isFalse();
    assertThat(global("us-iso-east-1", false, false, null, "legacy")).isFalse();
  }

  @Test
  void fipsIsRegional() {
    assertThat(global("us-east-1", true, false, null, null)).isFalse();
    // A FIPS pseudo-region asks for FIPS too.
    assertThat(global("fips-us-east-1", false, false, null, null)).isFalse();
    assertThat(global("us-east-1-fips", false, false, null, null)).isFalse();
  }

  @Test
  void dualstackIsRegional() {
    assertThat(global("us-east-1", false, true, null, null)).isFalse();
  }

  @Test
  void aCustomEndpointIsNeverReplaced() {
    assertThat(global("us-east-1", false, false, CUSTOM, null)).isFalse();
  }

  // The thin layer: what it reads and in which order.

  private static StsEndpoints.Input read(
      WebIdentitySettings.Builder settings, Map<String, String> env, Map<String, String> props) {
    return StsEndpoints.input(settings.build(), AwsEnvironment.of(env, props, null));
  }

  private static WebIdentitySettings.Builder settings() {
    return WebIdentitySettings.builder()
        .roleArn("arn:aws:iam::123456789012:role/r")
        .webIdentityTokenFile(Path.of("/var/run/token"));
  }

  @Test
  void nothingConfiguredReadsAsPlainUsEast1() {
    StsEndpoints.Input in = read(settings(), Map.of(), Map.of());
    assertThat(in).isEqualTo(new StsEndpoints.Input("us-east-1", false, false, null, null));
    assertThat(StsEndpoints.useGlobal(in)).isTrue();
  }

  @Test
  void theRegionComesFromSettingsThenPropertyThenAwsRegionThenAwsDefaultRegion() {
    Map<String, String> env = Map.of("AWS_REGION", "eu-west-1", "AWS_DEFAULT_REGION", "eu-west-2");
    assertThat(read(settings(), Map.of("AWS_DEFAULT_REGION", "eu-west-2"), Map.of()).region())
        .isEqualTo("eu-west-2");
    assertThat(read(settings(), env, Map.of()).region()).isEqualTo("eu-west-1");
    assertThat(read(settings(), env, Map.of("aws.region", "eu-central-1")).region())
        .isEqualTo("eu-central-1");
    assertThat(
            read(settings().region("ap-south-1"), env, Map.of("aws.region", "eu-central-1"))
                .region())
        .isEqualTo("ap-south-1");
  }

  @Test
  void fipsAndDualstackAreReadFromPropertyOrEnvironment() {
    assertThat(read(settings(), Map.of("AWS_USE_FIPS_ENDPOINT", "true"), Map.of()).fips()).isTrue();
    assertThat(read(settings(), Map.of(), Map.of("aws.useFipsEndpoint", "TRUE")).fips()).isTrue();
    assertThat(read(settings(), Map.of("AWS_USE_FIPS_ENDPOINT", "false"), Map.of()).fips())
        .isFalse();
    assertThat(read(settings(), Map.of("AWS_USE_DUALSTACK_ENDPOINT", "true"), Map.of()).dualstack())
        .isTrue();
    assertThat(read(settings(), Map.of(), Map.of("aws.useDualstackEndpoint", "true")).dualstack())
        .isTrue();
  }

  @Test
  void theRegionalEndpointsVariableIsPassedThrough() {
    assertThat(
            read(settings(), Map.of("AWS_STS_REGIONAL_ENDPOINTS", "regional"), Map.of())
                .regionalEndpoints())
        .isEqualTo("regional");
  }

  @Test
  void theCustomEndpointComesFromSettingsThenTheSdkEndpointUrlSettings() {
    assertThat(read(settings().stsEndpoint(CUSTOM), Map.of(), Map.of()).customEndpoint())
        .isEqualTo(CUSTOM);
    assertThat(
            read(settings(), Map.of("AWS_ENDPOINT_URL_STS", "https://a.example"), Map.of())
                .customEndpoint())
        .isEqualTo(URI.create("https://a.example"));
    assertThat(
            read(settings(), Map.of("AWS_ENDPOINT_URL", "https://b.example"), Map.of())
                .customEndpoint())
        .isEqualTo(URI.create("https://b.example"));
    assertThat(
            read(
                    settings(),
                    Map.of(
                        "AWS_ENDPOINT_URL",
                        "https://b.example",
                        "AWS_IGNORE_CONFIGURED_ENDPOINT_URLS",
                        "true"),
                    Map.of())
                .customEndpoint())
        .isNull();
  }
}
