package dev.sluice.testing.gcp;

import static java.util.Objects.requireNonNull;

import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.util.Base64;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/** Every access token the fake issued, by value; thread-safe. */
final class IssuedTokens {
  /** How a token came to be; only {@link #OAUTH} and {@link #IMPERSONATED} may be downscoped. */
  enum Kind {
    OAUTH,
    IMPERSONATED,
    DOWNSCOPED
  }

  /**
   * One token: its account (whose IAM it carries), scopes, expiry, and for a downscoped token the
   * Credential Access Boundary that bounds it.
   */
  record Issued(
      String value,
      String account,
      Kind kind,
      Set<String> scopes,
      Instant expiresAt,
      Optional<Boundary> boundary) {
    Issued {
      requireNonNull(value, "value");
      requireNonNull(account, "account");
      requireNonNull(kind, "kind");
      scopes = Set.copyOf(scopes);
      requireNonNull(expiresAt, "expiresAt");
      requireNonNull(boundary, "boundary");
    }

    boolean liveAt(Instant now) {
      return now.isBefore(expiresAt);
    }
  }

  private static final SecureRandom RANDOM = new SecureRandom();

  private final ConcurrentHashMap<String, Issued> byValue = new ConcurrentHashMap<>();
  private final Clock clock;

  IssuedTokens(Clock clock) {
    this.clock = requireNonNull(clock, "clock");
  }

  Instant now() {
    return clock.instant();
  }

  Issued issue(
      String account, Kind kind, Set<String> scopes, Instant expiresAt, Boundary boundary) {
    byte[] random = new byte[32];
    RANDOM.nextBytes(random);
    // Shaped like Google's (ya29. prefix) so nothing in a client special-cases the fake's tokens.
    String value =
        "ya29.fake-"
            + kind.name().toLowerCase()
            + "."
            + Base64.getUrlEncoder().withoutPadding().encodeToString(random);
    Issued issued =
        new Issued(value, account, kind, scopes, expiresAt, Optional.ofNullable(boundary));
    byValue.put(value, issued);
    return issued;
  }

  Optional<Issued> find(String value) {
    return value == null ? Optional.empty() : Optional.ofNullable(byValue.get(value));
  }

  /** Makes {@code value} expired from now on (Google then answers 401 for it). */
  void expireNow(String value) {
    Issued old = byValue.get(value);
    if (old == null) {
      throw new IllegalArgumentException("the fake never issued this token");
    }
    Instant past = clock.instant().minusMillis(1);
    byValue.put(
        value,
        new Issued(old.value(), old.account(), old.kind(), old.scopes(), past, old.boundary()));
  }
}
