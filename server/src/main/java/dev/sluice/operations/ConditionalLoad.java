package dev.sluice.operations;

import static java.util.Objects.requireNonNull;

import java.time.Clock;
import java.time.Duration;

/**
 * Whether a loadTable with {@code If-None-Match} is answered {@code 304 Not Modified}: when the
 * header names the response's current ETag, and only while every vended credential the response
 * carries has at least {@link #MIN_REMAINING} left. The tag already changes with the credential
 * (the vending cache re-vends at half a credential's lifetime); this guard keeps even a vendor's
 * short-lived credential from being confirmed to a client that would hold it expired.
 */
public final class ConditionalLoad {
  static final Duration MIN_REMAINING = Duration.ofMinutes(1);

  private final Clock clock;

  public ConditionalLoad(Clock clock) {
    this.clock = requireNonNull(clock, "clock");
  }

  /** Whether to answer 304 to {@code ifNoneMatch} (null if absent) for this response. */
  boolean notModified(String ifNoneMatch, String etag, long credentialsExpireAtMs) {
    if (ifNoneMatch == null || !IfNoneMatch.matches(ifNoneMatch, etag)) {
      return false;
    }
    return credentialsExpireAtMs == TableCredentials.Loaded.NEVER
        || credentialsExpireAtMs - clock.millis() >= MIN_REMAINING.toMillis();
  }
}
