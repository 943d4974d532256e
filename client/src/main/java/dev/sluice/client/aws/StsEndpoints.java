package dev.sluice.client.aws;

import static java.util.Objects.requireNonNull;

import java.net.URI;
import java.util.Locale;
import java.util.Optional;
import software.amazon.awssdk.regions.PartitionMetadata;
import software.amazon.awssdk.regions.Region;

/**
 * Which STS endpoint a web identity call goes to. The global endpoint only in the plain commercial
 * case, where it is what the legacy default has always been; anything else (another partition,
 * FIPS, dual-stack, a custom endpoint, {@code AWS_STS_REGIONAL_ENDPOINTS=regional} or an unknown
 * value of it) leaves resolution to the SDK, which picks the regional endpoint.
 */
public final class StsEndpoints {
  public static final URI GLOBAL = URI.create("https://sts.amazonaws.com");

  /** The global endpoint signs as us-east-1. */
  public static final Region GLOBAL_REGION = Region.US_EAST_1;

  private StsEndpoints() {}

  /**
   * The facts the rule depends on.
   *
   * @param region the STS region (never null: the caller defaults it)
   * @param fips FIPS endpoints requested ({@code AWS_USE_FIPS_ENDPOINT})
   * @param dualstack dual-stack endpoints requested ({@code AWS_USE_DUALSTACK_ENDPOINT})
   * @param customEndpoint a configured STS endpoint, or null
   * @param regionalEndpoints the value of {@code AWS_STS_REGIONAL_ENDPOINTS}, or null when unset
   */
  public record Input(
      String region,
      boolean fips,
      boolean dualstack,
      URI customEndpoint,
      String regionalEndpoints) {
    public Input {
      requireNonNull(region, "region");
    }
  }

  /** Whether the call goes to {@link #GLOBAL}. Pure: each rule is one condition. */
  public static boolean useGlobal(Input in) {
    return in.customEndpoint() == null
        && !in.fips()
        && !in.dualstack()
        && !in.region().toLowerCase(Locale.ROOT).contains("fips")
        && "aws".equals(PartitionMetadata.of(Region.of(in.region())).id())
        && (in.regionalEndpoints() == null
            || in.regionalEndpoints().trim().equalsIgnoreCase("legacy"));
  }

  /**
   * The input from the settings and the process, read as the SDK reads it (system property before
   * environment variable). The region defaults to us-east-1 rather than the SDK's chain, whose last
   * step asks the instance metadata service.
   */
  public static Input input(WebIdentitySettings settings, AwsEnvironment env) {
    String region =
        Optional.ofNullable(settings.region())
            .or(() -> env.setting("aws.region", "AWS_REGION"))
            .or(() -> env.env("AWS_DEFAULT_REGION"))
            .orElse(GLOBAL_REGION.id());
    return new Input(
        region,
        flag(env.setting("aws.useFipsEndpoint", "AWS_USE_FIPS_ENDPOINT")),
        flag(env.setting("aws.useDualstackEndpoint", "AWS_USE_DUALSTACK_ENDPOINT")),
        Optional.ofNullable(settings.stsEndpoint()).orElseGet(() -> configuredEndpoint(env)),
        env.env("AWS_STS_REGIONAL_ENDPOINTS").orElse(null));
  }

  /**
   * The SDK's service-specific, then global, endpoint URL settings (unless told to ignore them).
   */
  private static URI configuredEndpoint(AwsEnvironment env) {
    if (flag(
        env.setting("aws.ignoreConfiguredEndpointUrls", "AWS_IGNORE_CONFIGURED_ENDPOINT_URLS"))) {
      return null;
    }
    return env.setting("aws.endpointUrlSts", "AWS_ENDPOINT_URL_STS")
        .or(() -> env.setting("aws.endpointUrl", "AWS_ENDPOINT_URL"))
        .map(StsEndpoints::uri)
        .orElse(null);
  }

  private static URI uri(String value) {
    try {
      return URI.create(value);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "AWS_ENDPOINT_URL_STS/AWS_ENDPOINT_URL must be a URL, got: " + value, e);
    }
  }

  private static boolean flag(Optional<String> value) {
    return value.map(v -> v.equalsIgnoreCase("true")).orElse(false);
  }
}
