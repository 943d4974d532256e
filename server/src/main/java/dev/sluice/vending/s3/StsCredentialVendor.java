package dev.sluice.vending.s3;

import static java.util.Objects.requireNonNull;

import dev.sluice.vending.ClientProperties;
import dev.sluice.vending.CredentialVendor;
import dev.sluice.vending.StorageCredential;
import dev.sluice.vending.StorageTimeouts;
import dev.sluice.vending.VendingException;
import dev.sluice.vending.VendingRequest;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.Consumer;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.sts.StsClient;
import software.amazon.awssdk.services.sts.StsClientBuilder;
import software.amazon.awssdk.services.sts.model.AssumeRoleRequest;
import software.amazon.awssdk.services.sts.model.Credentials;
import software.amazon.awssdk.services.sts.model.Tag;

/**
 * S3 vending through STS AssumeRole with an inline session policy scoped to the table (AWS, Ceph
 * RGW, RustFS, MinIO). The role's own permission policy is the outer bound: Ceph RGW's session
 * tokens are not tamper-proof and a damaged policy fails open there, so never give the role more
 * than the warehouse.
 */
public final class StsCredentialVendor implements CredentialVendor {
  private final S3StorageProfile profile;
  private final StsClient sts;
  private final Consumer<Duration> stsLatency;

  public StsCredentialVendor(
      S3StorageProfile profile,
      AwsCredentialSource source,
      StorageTimeouts.Provider timeouts,
      Consumer<Duration> stsLatency) {
    this(profile, client(profile, source, timeouts), stsLatency);
  }

  /**
   * With an STS client made elsewhere (the micro-benchmarks use one that answers without network).
   */
  public StsCredentialVendor(
      S3StorageProfile profile, StsClient sts, Consumer<Duration> stsLatency) {
    this.profile = requireNonNull(profile, "profile");
    this.sts = requireNonNull(sts, "sts");
    this.stsLatency = requireNonNull(stsLatency, "stsLatency");
  }

  /** An STS client for {@code profile} whose calls keep to {@code timeouts}. */
  static StsClient client(
      S3StorageProfile profile, AwsCredentialSource source, StorageTimeouts.Provider timeouts) {
    requireNonNull(timeouts, "timeouts");
    StsClientBuilder builder =
        StsClient.builder()
            .httpClientBuilder(
                UrlConnectionHttpClient.builder()
                    .connectionTimeout(Duration.ofSeconds(3))
                    // Never shorter than an attempt may take.
                    .socketTimeout(
                        CatalogS3Client.longer(Duration.ofSeconds(10), timeouts.attempt())))
            .overrideConfiguration(
                c -> c.apiCallAttemptTimeout(timeouts.attempt()).apiCallTimeout(timeouts.call()))
            .region(Region.of(profile.region()))
            .credentialsProvider(requireNonNull(source, "source").provider());
    if (profile.effectiveStsEndpoint() != null) {
      builder.endpointOverride(URI.create(profile.effectiveStsEndpoint()));
    }
    return builder.build();
  }

  @Override
  public Optional<String> unsafe(String location) {
    return SessionPolicyBuilder.unsafe(location);
  }

  /**
   * The credential depends on the locations, the mode and the attribution fields that go into the
   * session name and tags; the table location is its prefix.
   */
  @Override
  public Object cacheKey(VendingRequest request) {
    SortedMap<String, String> attributed = new TreeMap<>();
    for (String field : profile.sessionNameFields()) {
      attributed.put(field, request.attribution().get(field));
    }
    for (String field : profile.sessionTagFields()) {
      attributed.put(field, request.attribution().get(field));
    }
    return List.of(
        request.tableLocation(),
        request.locations(),
        request.objects(),
        request.mode(),
        attributed);
  }

  /**
   * Exact objects only without a read template (a template is written for prefixes), and only while
   * the session policy stays within {@link SessionPolicyBuilder#MAX_POLICY_CHARS}.
   */
  @Override
  public boolean fits(VendingRequest request) {
    if (!request.objects().isEmpty() && profile.readTemplate() != null) {
      return false;
    }
    return policy(request).length() <= SessionPolicyBuilder.MAX_POLICY_CHARS;
  }

  private String policy(VendingRequest request) {
    return SessionPolicyBuilder.build(
        SessionPolicyBuilder.scopes(request.locations()),
        SessionPolicyBuilder.objects(request.objects()),
        request.mode(),
        profile.readTemplate(),
        profile.writeTemplate(),
        profile.kms(),
        profile.accessPoints(),
        profile.region());
  }

  @Override
  public List<StorageCredential> vend(VendingRequest request) {
    String policy = policy(request);
    AssumeRoleRequest.Builder assume =
        AssumeRoleRequest.builder()
            .roleArn(profile.roleArn())
            .roleSessionName(SessionNames.of(profile.sessionNameFields(), request.attribution()))
            .durationSeconds(profile.durationSeconds())
            .policy(policy);
    if (profile.externalId() != null) {
      assume.externalId(profile.externalId());
    }
    List<Tag> tags = new ArrayList<>();
    for (String field : profile.sessionTagFields()) {
      String value = request.attribution().get(field);
      if (value != null) {
        tags.add(Tag.builder().key("sluice-" + field).value(SessionNames.tagValue(value)).build());
      }
    }
    if (!tags.isEmpty()) {
      assume.tags(tags);
    }
    long start = System.nanoTime();
    Credentials credentials;
    try {
      credentials = sts.assumeRole(assume.build()).credentials();
    } catch (AwsServiceException e) {
      throw new VendingException(
          "Cannot vend credentials for catalog "
              + profile.catalog()
              + ": STS AssumeRole answered HTTP "
              + e.statusCode(),
          e.statusCode(),
          e);
    } catch (SdkException e) {
      throw new VendingException(
          "Cannot vend credentials for catalog "
              + profile.catalog()
              + ": STS is unreachable ("
              + e.getClass().getSimpleName()
              + ")",
          0,
          e);
    } finally {
      stsLatency.accept(Duration.ofNanos(System.nanoTime() - start));
    }
    long expiresAt = credentials.expiration().toEpochMilli();
    Map<String, String> config = new LinkedHashMap<>();
    config.put(ClientProperties.S3_ACCESS_KEY_ID, credentials.accessKeyId());
    config.put(ClientProperties.S3_SECRET_ACCESS_KEY, credentials.secretAccessKey());
    config.put(ClientProperties.S3_SESSION_TOKEN, credentials.sessionToken());
    config.put(ClientProperties.S3_SESSION_TOKEN_EXPIRES_AT_MS, Long.toString(expiresAt));
    config.put(ClientProperties.CLIENT_REGION, profile.region());
    if (profile.endpoint() != null) {
      config.put(ClientProperties.S3_ENDPOINT, profile.endpoint());
    }
    config.put(ClientProperties.S3_PATH_STYLE_ACCESS, Boolean.toString(profile.pathStyleAccess()));
    config.putAll(profile.storageProperties());
    // One credential offered under each prefix an engine matches the files with.
    List<StorageCredential> vended = new ArrayList<>();
    for (String prefix : request.credentialPrefixes()) {
      vended.add(new StorageCredential(prefix, config, expiresAt));
    }
    return vended;
  }

  @Override
  public void close() {
    sts.close();
  }
}
