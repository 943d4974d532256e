package dev.sluice.vending.azure;

import static java.util.Objects.requireNonNull;

import com.azure.core.credential.TokenCredential;
import com.azure.core.http.HttpClient;
import com.azure.storage.common.policy.RequestRetryOptions;
import com.azure.storage.common.policy.RetryPolicyType;
import com.azure.storage.file.datalake.DataLakeServiceClient;
import com.azure.storage.file.datalake.DataLakeServiceClientBuilder;
import com.azure.storage.file.datalake.models.UserDelegationKey;
import dev.sluice.vending.StorageTimeouts;
import java.time.Clock;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * User delegation keys per account, fetched with the catalog's Entra identity and reused until a
 * SAS signed with one could outlive it (a SAS must expire before its key). A key is asked for a day
 * (or the SAS lifetime plus an hour, if longer; at most Azure's 7 days), so most vends sign
 * locally.
 */
final class DelegationKeys {
  static final Duration KEY_LIFETIME = Duration.ofDays(1);
  static final Duration MAX_KEY_LIFETIME = Duration.ofDays(7);
  static final Duration MARGIN = Duration.ofMinutes(5);

  /**
   * The most tries of one key request: the STS client's (the AWS SDK's standard retries), not the
   * storage SDK's default of four with backoff (a minute or more before an engine's load fails).
   */
  static final int MAX_TRIES = 3;

  private final Function<String, DataLakeServiceClient> clients;
  private final Clock clock;
  private final Map<String, UserDelegationKey> keys = new ConcurrentHashMap<>();
  private final Map<String, DataLakeServiceClient> services = new ConcurrentHashMap<>();

  DelegationKeys(Function<String, DataLakeServiceClient> clients, Clock clock) {
    this.clients = requireNonNull(clients, "clients");
    this.clock = requireNonNull(clock, "clock");
  }

  /**
   * Service clients on {@code endpoint} (or each account's own host) with {@code credential}, their
   * key requests bounded by {@code timeouts} ({@link #retries}).
   */
  static Function<String, DataLakeServiceClient> clients(
      TokenCredential credential,
      String endpoint,
      HttpClient http,
      StorageTimeouts.Provider timeouts) {
    RequestRetryOptions retries = retries(timeouts);
    return host ->
        new DataLakeServiceClientBuilder()
            .endpoint(endpoint != null ? endpoint : "https://" + host)
            .credential(credential)
            .httpClient(http)
            .retryOptions(retries)
            .buildClient();
  }

  /**
   * A vend waits for a key: tries of {@code timeouts.attempt()} each, as many as fit in its call
   * (at least one, at most {@link #MAX_TRIES}; two by default), with a short backoff.
   */
  static RequestRetryOptions retries(StorageTimeouts.Provider timeouts) {
    return new RequestRetryOptions(
        RetryPolicyType.EXPONENTIAL,
        timeouts.attemptsWithinCall(MAX_TRIES),
        timeouts.attempt(),
        Duration.ofMillis(200),
        Duration.ofSeconds(1),
        null);
  }

  /** A key for {@code host}'s account valid at least until {@code until} plus a margin. */
  UserDelegationKey key(String host, OffsetDateTime until) {
    UserDelegationKey current = keys.get(host);
    if (current != null && current.getSignedExpiry().isAfter(until.plus(MARGIN))) {
      return current;
    }
    synchronized (this) {
      current = keys.get(host);
      if (current != null && current.getSignedExpiry().isAfter(until.plus(MARGIN))) {
        return current;
      }
      OffsetDateTime now = OffsetDateTime.now(clock.withZone(ZoneOffset.UTC));
      OffsetDateTime wanted = until.plus(Duration.ofHours(1));
      OffsetDateTime expiry = now.plus(KEY_LIFETIME);
      if (wanted.isAfter(expiry)) {
        expiry = wanted;
      }
      if (expiry.isAfter(now.plus(MAX_KEY_LIFETIME))) {
        expiry = now.plus(MAX_KEY_LIFETIME);
      }
      // Backdated start: the service refuses a key that starts in its future (clock skew).
      UserDelegationKey fresh =
          services.computeIfAbsent(host, clients).getUserDelegationKey(now.minus(MARGIN), expiry);
      keys.put(host, fresh);
      return fresh;
    }
  }
}
