package dev.sluice.vending.s3;

import static dev.sluice.vending.ProfileFields.bool;
import static dev.sluice.vending.ProfileFields.text;
import static dev.sluice.vending.ProfileFields.url;
import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.vending.Delegation;
import dev.sluice.vending.ProfileFields;
import dev.sluice.vending.StorageBackend;
import dev.sluice.vending.StorageProfile;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A catalog's S3 storage configuration ({@code storageConfigInfo} with {@code storageType: S3}),
 * validated: every error names its key. The one profile type for S3 and S3-compatible stores (AWS,
 * Ceph RGW, RustFS, MinIO).
 *
 * <pre>
 * {"storageType": "S3", "allowedLocations": ["s3://bucket/warehouse"],
 *  "roleArn": "arn:aws:iam::123456789012:role/TableAccess", "externalId": "…", "region": "us-east-1",
 *  "endpoint": "http://rgw:7480", "stsEndpoint": "…", "pathStyleAccess": true,
 *  "credentialSource": "rgw", "durationSeconds": 3600,
 *  "readPolicyTemplate": "…", "writePolicyTemplate": "…",
 *  "sessionName": ["principal"], "sessionTags": ["principal", "catalog", "namespace", "table"],
 *  "vendCredentials": "always" | "on-request", "stsUnavailable": false,
 *  "delegation": ["vended-credentials", "remote-signing"], "unscopedSigning": false,
 *  "signatureLifetimeSeconds": 30, "storeClockSkewSeconds": 900,
 *  "currentKmsKey": "arn:aws:kms:…:key/…", "allowedKmsKeys": ["arn:aws:kms:…:key/…"],
 *  "accessPoints": {"bucket": "arn:aws:s3:…:accesspoint/…"}}
 * </pre>
 *
 * <p>{@code delegation} says what engines are offered: vended credentials (STS, needs {@code
 * roleArn}), remote signing (each request signed by Sluice with an STS session scoped to the
 * request's table, like a vended credential; without a role or STS only with {@code
 * unscopedSigning}, as the credential source), or both. It defaults to vended credentials, or to
 * nothing when {@code stsUnavailable} is set. {@code pathStyleAccess} defaults to true with an
 * {@code endpoint} (S3-compatible stores), false on AWS.
 */
public record S3StorageProfile(
    String catalog,
    List<String> allowedLocations,
    String roleArn,
    String externalId,
    String region,
    String endpoint,
    String stsEndpoint,
    boolean pathStyleAccess,
    String credentialSourceName,
    int durationSeconds,
    PolicyTemplate readTemplate,
    PolicyTemplate writeTemplate,
    List<String> sessionNameFields,
    List<String> sessionTagFields,
    boolean vendOnlyOnRequest,
    boolean stsUnavailable,
    Set<Delegation.Kind> delegation,
    boolean unscopedSigning,
    SignatureWindow signatureWindow,
    KmsKeys kms,
    AccessPoints accessPoints,
    String identityScope)
    implements StorageProfile {
  public static final int MIN_DURATION = 900;
  public static final int MAX_DURATION = 43_200;
  public static final List<String> ATTRIBUTION_FIELDS =
      List.of("principal", "actor", "catalog", "namespace", "table");
  private static final String KEY = "storageConfigInfo.";

  public S3StorageProfile {
    requireNonNull(catalog, "catalog");
    allowedLocations = List.copyOf(allowedLocations);
    sessionNameFields = List.copyOf(sessionNameFields);
    sessionTagFields = List.copyOf(sessionTagFields);
    delegation = Set.copyOf(delegation);
    requireNonNull(signatureWindow, "signatureWindow");
    requireNonNull(kms, "kms");
    requireNonNull(accessPoints, "accessPoints");
    requireNonNull(identityScope, "identityScope");
  }

  /**
   * Parses and validates; {@link dev.sluice.vending.StorageBackends} has checked the type, the
   * schemes of the allowed locations and the credential source.
   */
  static S3StorageProfile parse(StorageBackend.Input input) {
    String catalog = input.catalog();
    JsonNode info = input.info();
    List<String> allowed = input.allowedLocations();
    int minDuration = input.minDurationSeconds();
    String region = text(info, "region");
    if (region == null) {
      throw new IllegalArgumentException(KEY + "region is required for storageType S3");
    }
    boolean stsUnavailable = bool(info, "stsUnavailable", false);
    Set<Delegation.Kind> delegation =
        ProfileFields.delegation(
            info,
            EnumSet.allOf(Delegation.Kind.class),
            stsUnavailable ? Set.of() : Set.of(Delegation.Kind.VENDED_CREDENTIALS));
    boolean vends = delegation.contains(Delegation.Kind.VENDED_CREDENTIALS);
    if (vends && stsUnavailable) {
      throw new IllegalArgumentException(
          KEY + "delegation: vended-credentials needs STS, but stsUnavailable is true");
    }
    String roleArn = text(info, "roleArn");
    if (roleArn == null && vends) {
      throw new IllegalArgumentException(
          KEY + "roleArn is required to vend credentials (delegation vended-credentials)");
    }
    String source = text(info, "credentialSource");
    if (source == null) {
      throw new IllegalArgumentException(
          KEY
              + "credentialSource is required (a name from the server config's storage.credentialSources)");
    }
    int duration = ProfileFields.duration(info, minDuration, MAX_DURATION, 3600);
    String endpoint = url(info, "endpoint");
    boolean unscopedSigning = bool(info, "unscopedSigning", false);
    if (delegation.contains(Delegation.Kind.REMOTE_SIGNING)
        && !scopesSigning(roleArn, stsUnavailable)
        && !unscopedSigning
        && input.source() != null) {
      // Checked when a catalog is defined (its source is then resolved); one read back from the
      // store refuses each sign request instead, with the same message.
      throw new IllegalArgumentException(unscopedSigningRefusal(catalog));
    }
    SignatureWindow window;
    try {
      window =
          new SignatureWindow(
              ProfileFields.integer(
                  info, "signatureLifetimeSeconds", SignatureWindow.DEFAULT_LIFETIME),
              ProfileFields.integer(
                  info, "storeClockSkewSeconds", SignatureWindow.DEFAULT_STORE_SKEW));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(KEY + e.getMessage());
    }
    PolicyTemplate readTemplate = template(info, "readPolicyTemplate");
    PolicyTemplate writeTemplate = template(info, "writePolicyTemplate");
    AccessPoints accessPoints = AccessPoints.parse(info, region, allowed);
    if (!accessPoints.isEmpty()) {
      checkAccessPoints(delegation, readTemplate, writeTemplate);
    }
    return new S3StorageProfile(
        catalog,
        allowed,
        roleArn,
        text(info, "externalId"),
        region,
        endpoint,
        url(info, "stsEndpoint"),
        // A store at an endpoint of its own reads paths path-style unless the operator declares
        // that it serves buckets by host; AWS's own endpoints do.
        bool(info, "pathStyleAccess", endpoint != null),
        source,
        duration,
        readTemplate,
        writeTemplate,
        fields(info, "sessionName", List.of("principal")),
        fields(info, "sessionTags", List.of()),
        ProfileFields.vendOnlyOnRequest(info),
        stsUnavailable,
        delegation,
        unscopedSigning,
        window,
        KmsKeys.parse(info, region, endpoint != null),
        accessPoints,
        "");
  }

  /**
   * Access points go with vended credentials and the built-in policy only: Sluice's signer reads
   * requests to a bucket's host or path, not to an access point's host, and a template names bucket
   * ARNs where a request through an access point is authorized against the access point's.
   */
  private static void checkAccessPoints(
      Set<Delegation.Kind> delegation, PolicyTemplate readTemplate, PolicyTemplate writeTemplate) {
    if (delegation.contains(Delegation.Kind.REMOTE_SIGNING)) {
      throw new IllegalArgumentException(
          KEY
              + "accessPoints cannot be combined with storageConfigInfo.delegation remote-signing:"
              + " engines would send requests to the access point's own host, which Sluice's"
              + " signer does not read as a table's objects; offer vended-credentials only");
    }
    if (readTemplate != null || writeTemplate != null) {
      throw new IllegalArgumentException(
          KEY
              + "accessPoints cannot be combined with storageConfigInfo.readPolicyTemplate or"
              + " writePolicyTemplate: a template names bucket ARNs, and a request through an"
              + " access point is authorized against the access point's own ARNs");
    }
  }

  /**
   * True when remote signing can use an identity the store confines to one table: an STS session of
   * the role under the table's session policy. Otherwise Sluice could sign only as its credential
   * source.
   */
  public boolean scopesSigning() {
    return scopesSigning(roleArn, stsUnavailable);
  }

  private static boolean scopesSigning(String roleArn, boolean stsUnavailable) {
    return roleArn != null && !stsUnavailable;
  }

  /** Why a profile that cannot scope its signatures signs nothing until its operator accepts it. */
  static String unscopedSigningRefusal(String catalog) {
    return KEY
        + "delegation offers remote-signing, but catalog "
        + catalog
        + " has no roleArn with STS to sign with a session the store confines to each table:"
        + " Sluice would sign as its credential source, and only its request parser would stand"
        + " between an engine and the whole of what that source may do (headers added after"
        + " signing included). Give it a roleArn, or have a service admin set"
        + " storageConfigInfo.unscopedSigning to true to accept that (see docs/S3-VENDING.md,"
        + " Remote signing)";
  }

  @Override
  public String storageType() {
    return S3Backend.TYPE;
  }

  @Override
  public Optional<String> credentialSource() {
    return Optional.of(credentialSourceName);
  }

  /** What {@code delegation} names. */
  @Override
  public Set<Delegation.Kind> offered() {
    return delegation;
  }

  /**
   * Iceberg's S3FileIO keys for remote signing: on, where to sign (both the 1.10 names and the
   * spec's newer ones, relative to the catalog URI), and how to reach the store. No key.
   */
  @Override
  public Map<String, String> signingConfig(String endpoint) {
    Map<String, String> config = S3Signing.config(endpoint, region, endpoint(), pathStyleAccess);
    config.putAll(kms.clientProperties());
    return config;
  }

  /**
   * What engines need besides the credential: write with the current KMS key, reach buckets through
   * their access points.
   */
  public Map<String, String> storageProperties() {
    Map<String, String> properties = new LinkedHashMap<>(kms.clientProperties());
    properties.putAll(accessPoints.clientProperties());
    return properties;
  }

  @Override
  public boolean delegateOnlyOnRequest() {
    return vendOnlyOnRequest;
  }

  /** This profile with credentials living {@code seconds} (the self-check's expiry probe). */
  S3StorageProfile withDuration(int seconds) {
    return copy(roleArn, externalId, credentialSourceName, seconds, identityScope);
  }

  /**
   * This profile assuming a namespace's role ({@code roleArn}, {@code externalId}) through its
   * credential source (the catalog's when null), for the tables below {@code namespace}; locations,
   * templates, lifetimes and endpoints stay the catalog's.
   */
  S3StorageProfile withIdentity(
      String namespace, String roleArn, String externalId, String credentialSourceName) {
    return copy(
        requireNonNull(roleArn, "roleArn"),
        externalId,
        credentialSourceName == null ? this.credentialSourceName : credentialSourceName,
        durationSeconds,
        requireNonNull(namespace, "namespace"));
  }

  /** This profile with the identity and lifetime given; everything else as it is. */
  private S3StorageProfile copy(
      String roleArn,
      String externalId,
      String credentialSourceName,
      int durationSeconds,
      String identityScope) {
    return new S3StorageProfile(
        catalog,
        allowedLocations,
        roleArn,
        externalId,
        region,
        endpoint,
        stsEndpoint,
        pathStyleAccess,
        credentialSourceName,
        durationSeconds,
        readTemplate,
        writeTemplate,
        sessionNameFields,
        sessionTagFields,
        vendOnlyOnRequest,
        stsUnavailable,
        delegation,
        unscopedSigning,
        signatureWindow,
        kms,
        accessPoints,
        identityScope);
  }

  /**
   * Where STS is: stsEndpoint, else the S3 endpoint (S3-compatible stores), else the SDK's regional
   * default.
   */
  public String effectiveStsEndpoint() {
    return stsEndpoint != null ? stsEndpoint : endpoint;
  }

  private static PolicyTemplate template(JsonNode info, String field) {
    String text = text(info, field);
    return text == null ? null : PolicyTemplate.parse(KEY + field, text);
  }

  private static List<String> fields(JsonNode info, String field, List<String> fallback) {
    JsonNode node = info.get(field);
    if (node == null || node.isNull()) {
      return fallback;
    }
    if (!node.isArray()) {
      throw new IllegalArgumentException(
          KEY + field + " must be an array of " + ATTRIBUTION_FIELDS);
    }
    List<String> out = new ArrayList<>();
    for (JsonNode item : node) {
      String value = item.asText().toLowerCase(Locale.ROOT);
      if (!item.isTextual() || !ATTRIBUTION_FIELDS.contains(value)) {
        throw new IllegalArgumentException(
            KEY + field + ": unknown field " + item + " (use " + ATTRIBUTION_FIELDS + ")");
      }
      out.add(value);
    }
    if (field.equals("sessionName") && out.isEmpty()) {
      throw new IllegalArgumentException(KEY + "sessionName must name at least one field");
    }
    return out;
  }
}
