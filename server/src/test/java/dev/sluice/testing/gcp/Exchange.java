package dev.sluice.testing.gcp;

import static java.util.Objects.requireNonNull;

import java.time.Instant;

/**
 * One token exchange the fake STS granted: whose token was downscoped, the {@code options} JSON
 * exactly as sent, the boundary parsed from it, and the downscoped token issued (with its expiry,
 * the source token's).
 */
public record Exchange(
    String subjectAccount, String optionsJson, Boundary boundary, String token, Instant expiresAt) {
  public Exchange {
    requireNonNull(subjectAccount, "subjectAccount");
    requireNonNull(optionsJson, "optionsJson");
    requireNonNull(boundary, "boundary");
    requireNonNull(token, "token");
    requireNonNull(expiresAt, "expiresAt");
  }
}
