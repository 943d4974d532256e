package dev.sluice.vending.r2;

import static java.util.Objects.requireNonNull;

import dev.sluice.vending.AccessMode;
import dev.sluice.vending.ClientProperties;
import dev.sluice.vending.CredentialVendor;
import dev.sluice.vending.StorageCredential;
import dev.sluice.vending.VendingException;
import dev.sluice.vending.VendingRequest;
import dev.sluice.vending.s3.AwsCredentialSource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * R2 vending: a temporary credential minted locally ({@link R2TokenMinter}) for the table's key
 * prefixes in its one bucket, read-only or read-write; no network call.
 */
public final class R2CredentialVendor implements CredentialVendor {
  private final R2StorageProfile profile;
  private final AwsCredentialSource parent;
  private final LongSupplier clockMillis;
  private final Consumer<Duration> mintTime;

  public R2CredentialVendor(
      R2StorageProfile profile,
      AwsCredentialSource parent,
      LongSupplier clockMillis,
      Consumer<Duration> mintTime) {
    this.profile = requireNonNull(profile, "profile");
    this.parent = requireNonNull(parent, "parent");
    this.clockMillis = requireNonNull(clockMillis, "clockMillis");
    this.mintTime = requireNonNull(mintTime, "mintTime");
    if (parent.kind() != AwsCredentialSource.Kind.STATIC) {
      throw new IllegalArgumentException("An R2 parent key is a static source");
    }
  }

  @Override
  public Optional<String> unscopable(List<String> locations) {
    return R2Scope.problem(locations);
  }

  /**
   * Cloudflare documents no limit on a temporary credential's paths, but the session token rides in
   * a header of every request: a plan's token stays within this many characters.
   */
  static final int MAX_SESSION_TOKEN_CHARS = 6144;

  /** Exact objects in the table's one bucket, while the session token stays short. */
  @Override
  public boolean fits(VendingRequest request) {
    if (!request.locations().isEmpty() && unscopable(request.locations()).isPresent()) {
      return false;
    }
    R2Scope scope;
    try {
      scope = R2Scope.of(request.locations(), request.objects());
    } catch (IllegalArgumentException e) {
      return false;
    }
    return mint(scope, request.mode(), 0, 0).sessionToken().length() <= MAX_SESSION_TOKEN_CHARS;
  }

  /** The credential depends only on where and how: R2 tokens carry no caller. */
  @Override
  public Object cacheKey(VendingRequest request) {
    return List.of(request.tableLocation(), request.locations(), request.objects(), request.mode());
  }

  @Override
  public List<StorageCredential> vend(VendingRequest request) {
    R2Scope scope;
    try {
      scope = R2Scope.of(request.locations(), request.objects());
    } catch (IllegalArgumentException e) {
      throw new VendingException(
          "Cannot vend credentials for catalog " + profile.catalog() + ": " + e.getMessage(),
          0,
          null);
    }
    long start = System.nanoTime();
    long now = clockMillis.getAsLong() / 1000;
    long expires = now + profile.durationSeconds();
    R2TokenMinter.Minted minted = mint(scope, request.mode(), now, expires);
    mintTime.accept(Duration.ofNanos(System.nanoTime() - start));
    Map<String, String> config = new LinkedHashMap<>();
    config.put(ClientProperties.S3_ACCESS_KEY_ID, minted.accessKeyId());
    config.put(ClientProperties.S3_SECRET_ACCESS_KEY, minted.secretAccessKey());
    config.put(ClientProperties.S3_SESSION_TOKEN, minted.sessionToken());
    config.put(ClientProperties.S3_SESSION_TOKEN_EXPIRES_AT_MS, Long.toString(expires * 1000));
    config.put(ClientProperties.S3_ENDPOINT, profile.endpoint());
    config.put(ClientProperties.CLIENT_REGION, R2Backend.REGION);
    config.put(ClientProperties.S3_PATH_STYLE_ACCESS, "true");
    List<StorageCredential> vended = new ArrayList<>();
    for (String prefix : request.credentialPrefixes()) {
      vended.add(new StorageCredential(prefix, config, expires * 1000));
    }
    return vended;
  }

  private R2TokenMinter.Minted mint(R2Scope scope, AccessMode mode, long now, long expires) {
    return R2TokenMinter.mint(
        parent.accessKeyId(),
        parent.secretAccessKey(),
        profile.accountId(),
        R2TokenMinter.audience(profile.endpoint()),
        scope.bucket(),
        mode == AccessMode.READ_WRITE
            ? R2TokenMinter.Scope.READ_WRITE
            : R2TokenMinter.Scope.READ_ONLY,
        scope.prefixPaths(),
        scope.objectPaths(),
        now,
        expires);
  }
}
