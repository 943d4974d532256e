package dev.sluice.vending.azure;

import static java.util.Objects.requireNonNull;

import com.azure.core.exception.HttpResponseException;
import com.azure.storage.file.datalake.models.UserDelegationKey;
import dev.sluice.vending.ClientProperties;
import dev.sluice.vending.CredentialVendor;
import dev.sluice.vending.StorageCredential;
import dev.sluice.vending.VendingException;
import dev.sluice.vending.VendingRequest;
import java.time.Clock;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Azure vending: per account, a user-delegation SAS on the table's directory (or, where the
 * operator allowed it on a flat account, its container), signed locally with a cached user
 * delegation key ({@link DelegationKeys}); the network is used only when a key must be fetched.
 */
public final class AzureCredentialVendor implements CredentialVendor {
  private final AzureStorageProfile profile;
  private final DelegationKeys keys;
  private final String endpoint;
  private final Clock clock;
  private final Consumer<Duration> keyLatency;

  AzureCredentialVendor(
      AzureStorageProfile profile,
      DelegationKeys keys,
      String endpoint,
      Clock clock,
      Consumer<Duration> keyLatency) {
    this.profile = requireNonNull(profile, "profile");
    this.keys = requireNonNull(keys, "keys");
    this.endpoint = endpoint;
    this.clock = requireNonNull(clock, "clock");
    this.keyLatency = requireNonNull(keyLatency, "keyLatency");
  }

  @Override
  public Optional<String> unsafe(String location) {
    try {
      AzureLocation.parse(location);
      return Optional.empty();
    } catch (IllegalArgumentException e) {
      return Optional.of("not an Azure location a SAS can name");
    }
  }

  @Override
  public Optional<String> unscopable(List<String> locations) {
    return SasScope.problem(locations, profile.containerScope());
  }

  /**
   * A plan's directories, when they fold into one directory per account; never under container
   * scope (the SAS would cover the container whatever the plan named), and no exact objects.
   */
  @Override
  public boolean fits(VendingRequest request) {
    return !profile.containerScope() && CredentialVendor.super.fits(request);
  }

  /** A SAS carries no caller: it depends only on where and how. */
  @Override
  public Object cacheKey(VendingRequest request) {
    return List.of(request.tableLocation(), request.locations(), request.objects(), request.mode());
  }

  @Override
  public List<StorageCredential> vend(VendingRequest request) {
    List<SasScope> scopes;
    try {
      scopes = SasScope.of(request.locations(), profile.containerScope());
    } catch (IllegalArgumentException e) {
      throw new VendingException(
          "Cannot vend credentials for catalog " + profile.catalog() + ": " + e.getMessage(),
          0,
          null);
    }
    OffsetDateTime expiry =
        OffsetDateTime.now(clock.withZone(ZoneOffset.UTC))
            .plusSeconds(profile.durationSeconds())
            .withNano(0);
    long expiresAt = expiry.toInstant().toEpochMilli();
    List<StorageCredential> credentials = new ArrayList<>();
    for (SasScope scope : scopes) {
      String host = scope.location().host();
      String sas = SasSigner.sign(scope, request.mode(), key(host, expiry), expiry);
      Map<String, String> config = new LinkedHashMap<>();
      config.put(ClientProperties.ADLS_SAS_TOKEN_PREFIX + host, sas);
      config.put(
          ClientProperties.ADLS_SAS_TOKEN_EXPIRES_AT_MS_PREFIX + host, Long.toString(expiresAt));
      if (endpoint != null) {
        config.put(ClientProperties.ADLS_CONNECTION_STRING_PREFIX + host, endpoint);
      }
      String scheme = host.contains(".dfs.") ? "abfss" : "wasbs";
      credentials.add(new StorageCredential(scope.prefix(scheme), config, expiresAt));
    }
    return credentials;
  }

  private UserDelegationKey key(String host, OffsetDateTime until) {
    long start = System.nanoTime();
    try {
      return keys.key(host, until);
    } catch (HttpResponseException e) {
      int status = e.getResponse() == null ? 0 : e.getResponse().getStatusCode();
      throw new VendingException(
          "Cannot vend credentials for catalog "
              + profile.catalog()
              + ": Azure refused a user delegation key (HTTP "
              + status
              + ")",
          status,
          e);
    } catch (RuntimeException e) {
      throw new VendingException(
          "Cannot vend credentials for catalog "
              + profile.catalog()
              + ": no user delegation key ("
              + e.getClass().getSimpleName()
              + ")",
          0,
          e);
    } finally {
      keyLatency.accept(Duration.ofNanos(System.nanoTime() - start));
    }
  }
}
