package dev.sluice.client.aws;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.regex.Pattern;

/**
 * What a {@link WebIdentityCredentialsProvider} assumes and how it behaves under throttling.
 * Validation messages start with the field name and show the bad value, so a caller can prefix its
 * own config key (the server prefixes {@code storage.credentialSources.<name>.}).
 *
 * @param roleArn the IAM role to assume
 * @param webIdentityTokenFile the projected service-account token (re-read on every STS call: the
 *     kubelet rotates it)
 * @param sessionName the STS role session name (shows in CloudTrail)
 * @param maxAttempts STS attempts per refresh, the first included (1 to 20)
 * @param minTtl refresh when less than this (plus jitter) remains; at least {@link #MIN_TTL_FLOOR}
 * @param refreshJitter a random 0..refreshJitter is added to minTtl per credential, so a fleet of
 *     executors that started together does not refresh together
 * @param backoffBase base delay of the exponential, jittered backoff between throttled attempts
 * @param region the STS region; null reads {@code aws.region}/{@code AWS_REGION}/{@code
 *     AWS_DEFAULT_REGION}, else us-east-1 (never the instance metadata, unlike the SDK's chain)
 * @param stsEndpoint a custom STS endpoint; null lets {@link StsEndpoints} choose
 */
public record WebIdentitySettings(
    String roleArn,
    Path webIdentityTokenFile,
    String sessionName,
    int maxAttempts,
    Duration minTtl,
    Duration refreshJitter,
    Duration backoffBase,
    String region,
    URI stsEndpoint) {
  public static final int DEFAULT_MAX_ATTEMPTS = 5;
  public static final Duration DEFAULT_MIN_TTL = Duration.ofSeconds(300);
  public static final Duration MIN_TTL_FLOOR = Duration.ofSeconds(120);
  public static final Duration DEFAULT_REFRESH_JITTER = Duration.ofSeconds(60);

  /** The SDK's own base for throttled retries. */
  public static final Duration DEFAULT_BACKOFF_BASE = Duration.ofSeconds(1);

  public static final String DEFAULT_SESSION_NAME = "sluice-client";

  // STS's own constraint on RoleSessionName.
  private static final Pattern SESSION_NAME = Pattern.compile("[\\w+=,.@-]{2,64}");

  public WebIdentitySettings {
    if (roleArn == null || !roleArn.trim().startsWith("arn:")) {
      throw new IllegalArgumentException(
          "roleArn must be an IAM role ARN (arn:...), got: " + roleArn);
    }
    roleArn = roleArn.trim();
    if (webIdentityTokenFile == null) {
      throw new IllegalArgumentException("webIdentityTokenFile is required");
    }
    if (sessionName == null || !SESSION_NAME.matcher(sessionName).matches()) {
      throw new IllegalArgumentException(
          "sessionName must be 2 to 64 characters of [A-Za-z0-9_+=,.@-], got: " + sessionName);
    }
    if (maxAttempts < 1 || maxAttempts > 20) {
      throw new IllegalArgumentException("maxAttempts must be 1 to 20, got: " + maxAttempts);
    }
    if (minTtl == null || minTtl.isNegative()) {
      throw new IllegalArgumentException("minTtlSeconds must be >= 0, got: " + seconds(minTtl));
    }
    // Below the floor a credential could expire during a slow S3 request signed with it.
    if (minTtl.compareTo(MIN_TTL_FLOOR) < 0) {
      minTtl = MIN_TTL_FLOOR;
    }
    if (refreshJitter == null
        || refreshJitter.isNegative()
        || refreshJitter.compareTo(Duration.ofHours(1)) > 0) {
      throw new IllegalArgumentException(
          "refreshJitterSeconds must be 0 to 3600, got: " + seconds(refreshJitter));
    }
    if (backoffBase == null
        || backoffBase.compareTo(Duration.ofMillis(1)) < 0
        || backoffBase.compareTo(Duration.ofMinutes(1)) > 0) {
      throw new IllegalArgumentException("backoffBase must be 1 ms to 60 s, got: " + backoffBase);
    }
    region = region == null || region.isBlank() ? null : region.trim();
    if (stsEndpoint != null
        && (!stsEndpoint.isAbsolute()
            || stsEndpoint.getHost() == null
            || !("https".equals(stsEndpoint.getScheme())
                || "http".equals(stsEndpoint.getScheme())))) {
      throw new IllegalArgumentException(
          "stsEndpoint must be an http(s) URL with a host, got: " + stsEndpoint);
    }
  }

  public static Builder builder() {
    return new Builder();
  }

  private static String seconds(Duration d) {
    return d == null ? "null" : String.valueOf(d.getSeconds());
  }

  /** Defaults: 5 attempts, minTtl 300 s, jitter 60 s, backoff base 1 s, session sluice-client. */
  public static final class Builder {
    private String roleArn;
    private Path webIdentityTokenFile;
    private String sessionName = DEFAULT_SESSION_NAME;
    private int maxAttempts = DEFAULT_MAX_ATTEMPTS;
    private Duration minTtl = DEFAULT_MIN_TTL;
    private Duration refreshJitter = DEFAULT_REFRESH_JITTER;
    private Duration backoffBase = DEFAULT_BACKOFF_BASE;
    private String region;
    private URI stsEndpoint;

    private Builder() {}

    public Builder roleArn(String roleArn) {
      this.roleArn = roleArn;
      return this;
    }

    public Builder webIdentityTokenFile(Path webIdentityTokenFile) {
      this.webIdentityTokenFile = webIdentityTokenFile;
      return this;
    }

    public Builder sessionName(String sessionName) {
      this.sessionName = sessionName;
      return this;
    }

    public Builder maxAttempts(int maxAttempts) {
      this.maxAttempts = maxAttempts;
      return this;
    }

    public Builder minTtlSeconds(long seconds) {
      this.minTtl = Duration.ofSeconds(seconds);
      return this;
    }

    public Builder refreshJitterSeconds(long seconds) {
      this.refreshJitter = Duration.ofSeconds(seconds);
      return this;
    }

    public Builder backoffBase(Duration backoffBase) {
      this.backoffBase = backoffBase;
      return this;
    }

    public Builder region(String region) {
      this.region = region;
      return this;
    }

    public Builder stsEndpoint(URI stsEndpoint) {
      this.stsEndpoint = stsEndpoint;
      return this;
    }

    public WebIdentitySettings build() {
      return new WebIdentitySettings(
          roleArn,
          webIdentityTokenFile,
          sessionName,
          maxAttempts,
          minTtl,
          refreshJitter,
          backoffBase,
          region,
          stsEndpoint);
    }
  }
}
