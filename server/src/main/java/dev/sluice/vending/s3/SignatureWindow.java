package dev.sluice.vending.s3;

import java.time.Clock;
import java.time.Instant;

/**
 * How long a request Sluice signed stays usable. SigV4 gives a header-signed request no expiry of
 * its own: the store accepts it while its {@code x-amz-date} lies within the store's clock-skew
 * window of the store's clock (AWS S3 documents 15 minutes; Ceph RGW applies the same, measured).
 * So Sluice dates each signature {@code storeSkewSeconds - lifetimeSeconds} in the past, and the
 * store itself refuses it {@code lifetimeSeconds} after it was made. The bound holds as long as
 * Sluice's clock and the store's agree to within a few seconds: a store clock ahead by d leaves
 * {@code lifetimeSeconds - d}, one behind by d gives {@code lifetimeSeconds + d}.
 *
 * @param lifetimeSeconds how long a signature is accepted after it is made
 * @param storeSkewSeconds the store's clock-skew window
 */
record SignatureWindow(int lifetimeSeconds, int storeSkewSeconds) {
  static final int DEFAULT_LIFETIME = 30;
  static final int DEFAULT_STORE_SKEW = 900;
  static final SignatureWindow DEFAULT = new SignatureWindow(DEFAULT_LIFETIME, DEFAULT_STORE_SKEW);

  SignatureWindow {
    if (storeSkewSeconds < 60 || storeSkewSeconds > 3600) {
      throw new IllegalArgumentException(
          "storeClockSkewSeconds must be between 60 and 3600, got: " + storeSkewSeconds);
    }
    if (lifetimeSeconds < 1 || lifetimeSeconds > storeSkewSeconds) {
      throw new IllegalArgumentException(
          "signatureLifetimeSeconds must be between 1 and storeClockSkewSeconds ("
              + storeSkewSeconds
              + "), got: "
              + lifetimeSeconds);
    }
  }

  /** The date to sign with now: the store's window then ends {@code lifetimeSeconds} from now. */
  Instant signingTime(Instant now) {
    return now.minusSeconds(storeSkewSeconds - lifetimeSeconds);
  }

  /** A clock that reads {@link #signingTime} of {@code clock}: the signer's signing clock. */
  Clock signingClock(Clock clock) {
    return Clock.offset(clock, java.time.Duration.ofSeconds(lifetimeSeconds - storeSkewSeconds));
  }
}
