package dev.sluice.client.aws;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import software.amazon.awssdk.auth.credentials.AnonymousCredentialsProvider;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.exception.SdkServiceException;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.retry.RetryUtils;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.retries.StandardRetryStrategy;
import software.amazon.awssdk.retries.api.BackoffStrategy;
import software.amazon.awssdk.retries.api.RetryStrategy;
import software.amazon.awssdk.services.sts.StsClient;
import software.amazon.awssdk.services.sts.StsClientBuilder;
import software.amazon.awssdk.services.sts.model.AssumeRoleWithWebIdentityResponse;
import software.amazon.awssdk.services.sts.model.Credentials;

/**
 * One STS {@code AssumeRoleWithWebIdentity} call, retried by the SDK with exponential backoff and
 * full jitter. The STS client is anonymous (the call is authenticated by the token alone) and has
 * an explicit region, so nothing here ever consults another credential source or the instance
 * metadata service.
 */
final class StsWebIdentityFetcher implements Supplier<AwsSessionCredentials> {
  /** The SDK's cap for throttled retries. */
  static final Duration MAX_BACKOFF = Duration.ofSeconds(20);

  private final WebIdentitySettings settings;
  private final StsEndpoints.Input endpoint;
  private final SdkHttpClient.Builder<?> httpClient;
  private volatile StsClient sts;
  // Attempts of the current call; calls never overlap (the cache's single flight).
  private final AtomicInteger attempts = new AtomicInteger();

  /** {@code httpClient} null: the SDK's default HTTP implementation on the classpath. */
  StsWebIdentityFetcher(
      WebIdentitySettings settings, AwsEnvironment env, SdkHttpClient.Builder<?> httpClient) {
    this.settings = requireNonNull(settings, "settings");
    this.endpoint = StsEndpoints.input(settings, requireNonNull(env, "env"));
    this.httpClient = httpClient;
  }

  @Override
  public AwsSessionCredentials get() {
    String token = readToken();
    attempts.set(0);
    AssumeRoleWithWebIdentityResponse response;
    try {
      response =
          sts()
              .assumeRoleWithWebIdentity(
                  r ->
                      r.roleArn(settings.roleArn())
                          .roleSessionName(settings.sessionName())
                          .webIdentityToken(token));
    } catch (SdkException e) {
      throw SdkClientException.create(describe(e), e);
    }
    Credentials c = response.credentials();
    if (c == null || c.expiration() == null) {
      throw SdkClientException.create(
          "STS AssumeRoleWithWebIdentity for role "
              + settings.roleArn()
              + " returned no credential or no expiration");
    }
    return AwsSessionCredentials.builder()
        .accessKeyId(c.accessKeyId())
        .secretAccessKey(c.secretAccessKey())
        .sessionToken(c.sessionToken())
        .expirationTime(c.expiration())
        .build();
  }

  /** Re-read on every call: the kubelet rotates the projected token. */
  private String readToken() {
    String token;
    try {
      token = Files.readString(settings.webIdentityTokenFile(), StandardCharsets.UTF_8).trim();
    } catch (IOException e) {
      throw SdkClientException.create(
          "Cannot read the web identity token file "
              + settings.webIdentityTokenFile()
              + " for role "
              + settings.roleArn()
              + ": "
              + e,
          e);
    }
    if (token.isEmpty()) {
      throw SdkClientException.create(
          "The web identity token file " + settings.webIdentityTokenFile() + " is empty");
    }
    return token;
  }

  private StsClient sts() {
    StsClient client = sts;
    if (client == null) {
      synchronized (this) {
        client = sts;
        if (client == null) {
          client = sts = newClient();
        }
      }
    }
    return client;
  }

  private StsClient newClient() {
    StsClientBuilder builder =
        StsClient.builder()
            .credentialsProvider(AnonymousCredentialsProvider.create())
            .overrideConfiguration(
                o ->
                    o.retryStrategy(retryStrategy(settings.maxAttempts(), settings.backoffBase()))
                        .addExecutionInterceptor(new AttemptCounter(attempts)));
    if (endpoint.customEndpoint() != null) {
      builder.region(Region.of(endpoint.region())).endpointOverride(endpoint.customEndpoint());
    } else if (StsEndpoints.useGlobal(endpoint)) {
      builder.region(StsEndpoints.GLOBAL_REGION).endpointOverride(StsEndpoints.GLOBAL);
    } else {
      builder.region(Region.of(endpoint.region())); // the SDK resolves the regional endpoint
    }
    if (httpClient != null) {
      builder.httpClientBuilder(httpClient);
    }
    return builder.build();
  }

  /**
   * The SDK's standard strategy without its circuit breaker (a process-wide single flight needs
   * none, and the attempt count stays exactly {@code maxAttempts}); throttling and transient errors
   * are recognized by the SDK's own rules.
   */
  static RetryStrategy retryStrategy(int maxAttempts, Duration base) {
    BackoffStrategy backoff = BackoffStrategy.exponentialDelay(base, MAX_BACKOFF);
    return StandardRetryStrategy.builder()
        .maxAttempts(maxAttempts)
        .circuitBreakerEnabled(false)
        .backoffStrategy(backoff)
        .throttlingBackoffStrategy(backoff)
        .treatAsThrottling(StsWebIdentityFetcher::throttled)
        .retryOnException(StsWebIdentityFetcher::retryable)
        .build();
  }

  static boolean throttled(Throwable t) {
    return t instanceof SdkException e && RetryUtils.isThrottlingException(e);
  }

  /**
   * Throttling, 5xx, clock skew and I/O failures (STS unreachable): what the SDK's own default
   * strategy retries.
   */
  static boolean retryable(Throwable t) {
    if (!(t instanceof SdkException e)) {
      return false;
    }
    return RetryUtils.isThrottlingException(e)
        || RetryUtils.isRetryableException(e)
        || RetryUtils.isClockSkewException(e)
        || (e instanceof SdkServiceException s && s.statusCode() >= 500)
        || causedByIo(e);
  }

  private static boolean causedByIo(Throwable t) {
    for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
      if (c instanceof IOException || c instanceof UncheckedIOException) {
        return true;
      }
    }
    return false;
  }

  /** Role, attempts and the STS error code: never the token. */
  private String describe(SdkException e) {
    StringBuilder msg =
        new StringBuilder("STS AssumeRoleWithWebIdentity for role ")
            .append(settings.roleArn())
            .append(" failed after ")
            .append(attempts.get())
            .append(" attempt(s)");
    if (throttled(e)) {
      msg.append(", throttled");
    }
    if (e instanceof AwsServiceException a && a.awsErrorDetails() != null) {
      msg.append(": ")
          .append(a.awsErrorDetails().errorCode())
          .append(" (HTTP ")
          .append(a.statusCode())
          .append(")");
    } else {
      msg.append(": ").append(e.getMessage());
    }
    return msg.append("; no other credential source is tried").toString();
  }

  /**
   * Counts HTTP attempts, retries included (the interceptor API exists in every SDK v2, unlike
   * {@code SdkException.numAttempts()}).
   */
  private static final class AttemptCounter implements ExecutionInterceptor {
    private final AtomicInteger attempts;

    AttemptCounter(AtomicInteger attempts) {
      this.attempts = attempts;
    }

    @Override
    public void beforeTransmission(
        Context.BeforeTransmission context, ExecutionAttributes executionAttributes) {
      attempts.incrementAndGet();
    }
  }
}
