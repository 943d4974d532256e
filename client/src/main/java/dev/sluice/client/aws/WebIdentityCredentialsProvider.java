package dev.sluice.client.aws;

import static java.util.Objects.requireNonNull;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.UnaryOperator;
import java.util.logging.Level;
import java.util.logging.Logger;
import software.amazon.awssdk.auth.credentials.AwsCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.http.SdkHttpClient;

/**
 * Web identity (IRSA) credentials that survive STS throttling: one cached credential per process
 * per (role, token file, session name), shared by all threads and all instances, fetched by a
 * single STS call at a time with the SDK's jittered exponential backoff, refreshed ahead of expiry
 * with per-credential jitter, and kept in service while a refresh fails and it is still valid.
 *
 * <p>Never falls back to the instance role or any other chain: a failure is an {@link
 * software.amazon.awssdk.core.exception.SdkClientException} naming the role and the attempts.
 *
 * <p>The first instance for a key creates the shared cache with its settings; later instances for
 * the same key share it as is.
 */
public final class WebIdentityCredentialsProvider implements AwsCredentialsProvider {
  private static final Logger LOG =
      Logger.getLogger(WebIdentityCredentialsProvider.class.getName());

  private record Key(String roleArn, Path tokenFile, String sessionName) {}

  private static final ConcurrentMap<Key, CredentialCache> SHARED = new ConcurrentHashMap<>();

  private final WebIdentitySettings settings;
  private final CredentialCache cache;

  private WebIdentityCredentialsProvider(WebIdentitySettings settings, CredentialCache cache) {
    this.settings = settings;
    this.cache = cache;
  }

  /** With this process's environment and the SDK's default HTTP implementation. */
  public static WebIdentityCredentialsProvider create(WebIdentitySettings settings) {
    return create(settings, AwsEnvironment.system(), null);
  }

  /**
   * {@code env} decides the STS endpoint and the default region; {@code httpClient} null uses the
   * SDK's default HTTP implementation. Used as is, without {@link #resolve}'s stand-aside rules:
   * for a caller whose configuration chose web identity explicitly (the server).
   */
  public static WebIdentityCredentialsProvider create(
      WebIdentitySettings settings, AwsEnvironment env, SdkHttpClient.Builder<?> httpClient) {
    requireNonNull(settings, "settings");
    requireNonNull(env, "env");
    Key key =
        new Key(
            settings.roleArn(),
            settings.webIdentityTokenFile().toAbsolutePath().normalize(),
            settings.sessionName());
    CredentialCache cache =
        SHARED.computeIfAbsent(key, k -> newCache(settings, env, httpClient, Clock.systemUTC()));
    return new WebIdentityCredentialsProvider(settings, cache);
  }

  /** Not shared, with its own clock: for tests. */
  static WebIdentityCredentialsProvider unshared(
      WebIdentitySettings settings, AwsEnvironment env, Clock clock) {
    return new WebIdentityCredentialsProvider(settings, newCache(settings, env, null, clock));
  }

  private static CredentialCache newCache(
      WebIdentitySettings settings,
      AwsEnvironment env,
      SdkHttpClient.Builder<?> httpClient,
      Clock clock) {
    return new CredentialCache(
        settings.roleArn(),
        new StsWebIdentityFetcher(settings, env, httpClient),
        clock,
        settings.minTtl(),
        settings.refreshJitter(),
        bound -> bound <= 0 ? 0 : ThreadLocalRandom.current().nextLong(bound + 1));
  }

  /**
   * The engine-side provider from the SDK's web identity settings ({@code aws.roleArn}/{@code
   * AWS_ROLE_ARN}, {@code aws.webIdentityTokenFile}/{@code AWS_WEB_IDENTITY_TOKEN_FILE}, optional
   * {@code aws.roleSessionName}/{@code AWS_ROLE_SESSION_NAME}), or empty: when those are not set,
   * or when a higher-precedence source is configured ({@link HigherPrecedenceSources#find}; the
   * caller then uses that source). {@code explicitKeys}: the caller itself was given keys.
   */
  public static Optional<WebIdentityCredentialsProvider> resolve(
      boolean explicitKeys, AwsEnvironment env) {
    return resolve(explicitKeys, env, UnaryOperator.identity());
  }

  /** As {@link #resolve(boolean, AwsEnvironment)}, with the caller's tuning of the settings. */
  public static Optional<WebIdentityCredentialsProvider> resolve(
      boolean explicitKeys, AwsEnvironment env, UnaryOperator<WebIdentitySettings.Builder> tuning) {
    return settingsFromEnvironment(explicitKeys, env)
        .map(b -> create(tuning.apply(b).build(), env, null));
  }

  /** The pre-filled settings {@link #resolve} would use, or empty (see there). */
  public static Optional<WebIdentitySettings.Builder> settingsFromEnvironment(
      boolean explicitKeys, AwsEnvironment env) {
    requireNonNull(env, "env");
    Optional<String> role = env.setting("aws.roleArn", "AWS_ROLE_ARN");
    Optional<String> tokenFile =
        env.setting("aws.webIdentityTokenFile", "AWS_WEB_IDENTITY_TOKEN_FILE");
    if (role.isEmpty() || tokenFile.isEmpty()) {
      return Optional.empty();
    }
    Optional<String> higher = HigherPrecedenceSources.find(explicitKeys, env);
    if (higher.isPresent()) {
      LOG.log(
          Level.FINE,
          "Web identity for {0} stands aside: {1} is configured",
          new Object[] {role.get(), higher.get()});
      return Optional.empty();
    }
    WebIdentitySettings.Builder builder =
        WebIdentitySettings.builder()
            .roleArn(role.get())
            .webIdentityTokenFile(Path.of(tokenFile.get()));
    env.setting("aws.roleSessionName", "AWS_ROLE_SESSION_NAME").ifPresent(builder::sessionName);
    return Optional.of(builder);
  }

  @Override
  public AwsCredentials resolveCredentials() {
    return cache.get();
  }

  public WebIdentitySettings settings() {
    return settings;
  }

  /** For tests: when the current credential will be refreshed (null before the first). */
  Instant refreshAt() {
    return cache.refreshAt();
  }

  @Override
  public String toString() {
    return "WebIdentityCredentialsProvider[roleArn="
        + settings.roleArn()
        + ", webIdentityTokenFile="
        + settings.webIdentityTokenFile()
        + ", sessionName="
        + settings.sessionName()
        + "]";
  }
}
