package dev.sluice.config;

import static dev.sluice.config.Bounds.checked;
import static dev.sluice.config.Bounds.orDefault;

import dev.sluice.auth.TokenThrottle;

/**
 * {@code auth.tokenThrottle}: failed token requests allowed per client id and per address before
 * the endpoint answers 429; defaults and checks are {@link TokenThrottle.Limits}'.
 */
public record TokenThrottleSection(
    Boolean enabled,
    Integer clientBurst,
    Integer clientFailuresPerMinute,
    Integer addressBurst,
    Integer addressFailuresPerMinute,
    Long maxTrackedKeys) {

  public static final TokenThrottleSection DEFAULT =
      new TokenThrottleSection(null, null, null, null, null, null);

  public TokenThrottleSection {
    TokenThrottle.Limits d = TokenThrottle.Limits.DEFAULT;
    enabled = orDefault(enabled, d.enabled());
    clientBurst = orDefault(clientBurst, d.clientBurst());
    clientFailuresPerMinute = orDefault(clientFailuresPerMinute, d.clientPerMinute());
    addressBurst = orDefault(addressBurst, d.addressBurst());
    addressFailuresPerMinute = orDefault(addressFailuresPerMinute, d.addressPerMinute());
    maxTrackedKeys = orDefault(maxTrackedKeys, d.maxTrackedKeys());
    limitsOf(
        enabled,
        clientBurst,
        clientFailuresPerMinute,
        addressBurst,
        addressFailuresPerMinute,
        maxTrackedKeys);
  }

  /** The throttle's limits. */
  public TokenThrottle.Limits limits() {
    return limitsOf(
        enabled,
        clientBurst,
        clientFailuresPerMinute,
        addressBurst,
        addressFailuresPerMinute,
        maxTrackedKeys);
  }

  private static TokenThrottle.Limits limitsOf(
      boolean enabled,
      int clientBurst,
      int clientPerMinute,
      int addressBurst,
      int addressPerMinute,
      long maxTrackedKeys) {
    return checked(
        () ->
            new TokenThrottle.Limits(
                enabled,
                clientBurst,
                clientPerMinute,
                addressBurst,
                addressPerMinute,
                maxTrackedKeys));
  }
}
