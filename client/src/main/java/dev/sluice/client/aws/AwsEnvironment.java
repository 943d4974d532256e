package dev.sluice.client.aws;

import static java.util.Objects.requireNonNull;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * What the AWS SDK would read from the process: environment variables, system properties and the
 * home directory (for {@code ~/.aws}). A value so the rules built on it are testable without
 * touching the real process environment.
 */
public final class AwsEnvironment {
  private final Function<String, String> env;
  private final Function<String, String> properties;
  private final Path home;

  private AwsEnvironment(
      Function<String, String> env, Function<String, String> properties, Path home) {
    this.env = requireNonNull(env, "env");
    this.properties = requireNonNull(properties, "properties");
    this.home = home;
  }

  /**
   * This process: {@link System#getenv}, {@link System#getProperty}, and the home directory as the
   * SDK finds it ({@code HOME}, else {@code user.home}).
   */
  public static AwsEnvironment system() {
    String home = System.getenv("HOME");
    if (home == null || home.isBlank()) {
      home = System.getProperty("user.home");
    }
    return new AwsEnvironment(
        System::getenv, System::getProperty, home == null || home.isBlank() ? null : Path.of(home));
  }

  /** Fixed values ({@code home} may be null: no home directory). */
  public static AwsEnvironment of(
      Map<String, String> env, Map<String, String> properties, Path home) {
    Map<String, String> e = Map.copyOf(env);
    Map<String, String> p = Map.copyOf(properties);
    return new AwsEnvironment(e::get, p::get, home);
  }

  /** The environment variable {@code name}, trimmed; empty when unset or blank. */
  public Optional<String> env(String name) {
    return nonBlank(env.apply(name));
  }

  /** The system property {@code name}, trimmed; empty when unset or blank. */
  public Optional<String> property(String name) {
    return nonBlank(properties.apply(name));
  }

  /** A setting the SDK reads from a system property first, then an environment variable. */
  public Optional<String> setting(String property, String envVar) {
    return property(property).or(() -> env(envVar));
  }

  /** The user's home directory, if known. */
  public Optional<Path> home() {
    return Optional.ofNullable(home);
  }

  /** Whether {@code path} is a regular file (a seam for the shared-file rules). */
  public boolean isFile(Path path) {
    return Files.isRegularFile(path);
  }

  private static Optional<String> nonBlank(String value) {
    return value == null || value.isBlank() ? Optional.empty() : Optional.of(value.trim());
  }
}
