package dev.sluice.config;

import java.time.Duration;
import java.util.function.Supplier;

/** The range checks of the sections' constructors; each message names the key and the value. */
final class Bounds {
  private Bounds() {}

  /** {@code value}, which must lie within {@code [min, max]}. */
  static long between(String key, long value, long min, long max) {
    if (value < min || value > max) {
      throw new ConfigException(key + " must be between " + min + " and " + max + ", got " + value);
    }
    return value;
  }

  /** {@code value}, which must lie within {@code [min, max]}; written as ISO-8601 durations. */
  static Duration between(String key, Duration value, Duration min, Duration max) {
    if (value.compareTo(min) < 0 || value.compareTo(max) > 0) {
      throw new ConfigException(
          key + " must be between " + iso(min) + " and " + iso(max) + ", got " + iso(value));
    }
    return value;
  }

  /** {@code value}, which must not be shorter than {@code other}, the value of {@code otherKey}. */
  static Duration atLeast(String key, Duration value, String otherKey, Duration other) {
    if (value.compareTo(other) < 0) {
      throw new ConfigException(
          key + " must be at least " + otherKey + " (" + iso(other) + "), got " + iso(value));
    }
    return value;
  }

  /** ISO-8601 as an operator writes it: {@code P7D}, not {@code PT168H}. */
  static String iso(Duration value) {
    long seconds = value.toSeconds();
    boolean wholeDays = seconds > 0 && seconds % 86_400 == 0 && value.toNanosPart() == 0;
    return wholeDays ? "P" + seconds / 86_400 + "D" : value.toString();
  }

  /** The value given, or {@code fallback} when the key is absent (or null). */
  static <T> T orDefault(T value, T fallback) {
    return value == null ? fallback : value;
  }

  /** Runs a check of a lower layer, whose errors name the key, as a {@link ConfigException}. */
  static <T> T checked(Supplier<T> build) {
    try {
      return build.get();
    } catch (IllegalArgumentException e) {
      throw new ConfigException(e.getMessage());
    }
  }
}
