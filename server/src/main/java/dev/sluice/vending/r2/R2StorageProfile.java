package dev.sluice.vending.r2;

import static dev.sluice.vending.ProfileFields.text;
import static dev.sluice.vending.ProfileFields.url;
import static java.util.Objects.requireNonNull;

import dev.sluice.location.LocationPolicy;
import dev.sluice.vending.Delegation;
import dev.sluice.vending.ProfileFields;
import dev.sluice.vending.StorageBackend;
import dev.sluice.vending.StorageProfile;
import dev.sluice.vending.s3.S3Signing;
import java.net.URI;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A catalog on Cloudflare R2 ({@code storageConfigInfo} with {@code storageType: R2}), validated:
 * every error names its key.
 *
 * <pre>
 * {"storageType": "R2", "allowedLocations": ["s3://bucket/warehouse"],
 *  "endpoint": "https://&lt;account&gt;.r2.cloudflarestorage.com", "accountId": "&lt;account&gt;",
 *  "credentialSource": "r2", "durationSeconds": 900, "vendCredentials": "always" | "on-request",
 *  "delegation": ["vended-credentials", "remote-signing"]}
 * </pre>
 *
 * <p>With remote signing, Sluice signs each request with the parent key pair after authorizing it.
 *
 * <p>{@code accountId} defaults to the first label of an {@code *.r2.cloudflarestorage.com}
 * endpoint; the credential source is a static key pair (the parent API token's S3 credentials).
 */
public record R2StorageProfile(
    String catalog,
    List<String> allowedLocations,
    String endpoint,
    String accountId,
    String credentialSourceName,
    int durationSeconds,
    boolean vendOnlyOnRequest,
    Set<Delegation.Kind> delegation)
    implements StorageProfile {
  /** Cloudflare's temporary credentials live at most 7 days. */
  public static final int MAX_DURATION = 604_800;

  public static final int DEFAULT_DURATION = 900;
  private static final String KEY = StorageBackend.Input.KEY;
  private static final String R2_HOST = ".r2.cloudflarestorage.com";
  private static final Pattern ACCOUNT = Pattern.compile("[0-9a-f]{32}");

  public R2StorageProfile {
    requireNonNull(catalog, "catalog");
    allowedLocations = List.copyOf(allowedLocations);
    requireNonNull(endpoint, "endpoint");
    requireNonNull(accountId, "accountId");
    requireNonNull(credentialSourceName, "credentialSourceName");
    delegation = Set.copyOf(delegation);
  }

  static R2StorageProfile parse(StorageBackend.Input input) {
    var info = input.info();
    String endpoint = url(info, "endpoint");
    if (endpoint == null) {
      throw new IllegalArgumentException(
          KEY + "endpoint is required for storageType R2 (https://<account>" + R2_HOST + ")");
    }
    String accountId = text(info, "accountId");
    if (accountId == null) {
      String host = URI.create(endpoint).getHost().toLowerCase(Locale.ROOT);
      if (!host.endsWith(R2_HOST)) {
        throw new IllegalArgumentException(
            KEY + "accountId is required when endpoint is not https://<account>" + R2_HOST);
      }
      accountId = host.substring(0, host.indexOf('.'));
    }
    if (!ACCOUNT.matcher(accountId).matches()) {
      throw new IllegalArgumentException(
          KEY + "accountId must be a Cloudflare account id (32 lowercase hex characters)");
    }
    String source = text(info, "credentialSource");
    if (source == null) {
      throw new IllegalArgumentException(
          KEY
              + "credentialSource is required (a static source in the server config holding the"
              + " parent R2 key pair)");
    }
    int duration =
        ProfileFields.duration(info, input.minDurationSeconds(), MAX_DURATION, DEFAULT_DURATION);
    return new R2StorageProfile(
        input.catalog(),
        input.allowedLocations(),
        endpoint,
        accountId,
        source,
        duration,
        ProfileFields.vendOnlyOnRequest(info),
        ProfileFields.delegation(
            info,
            EnumSet.allOf(Delegation.Kind.class),
            Set.of(Delegation.Kind.VENDED_CREDENTIALS)));
  }

  /** This profile with credentials living {@code seconds} (the self-check's expiry probe). */
  public R2StorageProfile withDuration(int seconds) {
    return new R2StorageProfile(
        catalog,
        allowedLocations,
        endpoint,
        accountId,
        credentialSourceName,
        seconds,
        vendOnlyOnRequest,
        delegation);
  }

  @Override
  public String storageType() {
    return R2Backend.TYPE;
  }

  @Override
  public Optional<String> credentialSource() {
    return Optional.of(credentialSourceName);
  }

  @Override
  public Set<Delegation.Kind> offered() {
    return delegation;
  }

  /** R2 speaks the S3 API: S3FileIO's signing keys, region {@code auto}, path style. */
  @Override
  public Map<String, String> signingConfig(String signEndpoint) {
    return S3Signing.config(signEndpoint, R2Backend.REGION, endpoint, true);
  }

  @Override
  public boolean delegateOnlyOnRequest() {
    return vendOnlyOnRequest;
  }

  /** A key prefix in one bucket: the only shape an R2 credential can be scoped to. */
  @Override
  public Optional<String> unusableLocations(String location, Map<String, String> properties) {
    return R2Scope.problem(LocationPolicy.locationsByProperty(location, properties));
  }
}
