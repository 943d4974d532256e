package dev.sluice.client.aws;

import java.nio.file.Path;
import java.util.Optional;

/**
 * The credential sources an engine-side web identity provider stands aside for. Checked, in order:
 *
 * <ol>
 *   <li>explicit keys the caller was configured with (its own properties, e.g. a catalog's access
 *       key);
 *   <li>a static key pair in system properties ({@code aws.accessKeyId} and {@code
 *       aws.secretAccessKey}) or environment variables ({@code AWS_ACCESS_KEY_ID} and {@code
 *       AWS_SECRET_ACCESS_KEY}); half a pair is not a source;
 *   <li>a named profile: {@code aws.profile} or {@code AWS_PROFILE};
 *   <li>a shared credentials file: {@code aws.sharedCredentialsFile}/{@code
 *       AWS_SHARED_CREDENTIALS_FILE}, else {@code ~/.aws/credentials}, if it is a regular file;
 *   <li>a shared config file: {@code aws.configFile}/{@code AWS_CONFIG_FILE}, else {@code
 *       ~/.aws/config}, if it is a regular file.
 * </ol>
 *
 * A shared file counts by its presence alone, whatever it holds: whoever put it there chose the
 * SDK's profile machinery, and this provider does not second-guess which profile they meant.
 */
public final class HigherPrecedenceSources {
  private HigherPrecedenceSources() {}

  /** The first higher-precedence source configured (a description, no values), or empty. */
  public static Optional<String> find(boolean explicitKeys, AwsEnvironment env) {
    if (explicitKeys) {
      return Optional.of("explicit keys");
    }
    if (env.property("aws.accessKeyId").isPresent()
        && env.property("aws.secretAccessKey").isPresent()) {
      return Optional.of("static keys in system properties aws.accessKeyId/aws.secretAccessKey");
    }
    if (env.env("AWS_ACCESS_KEY_ID").isPresent() && env.env("AWS_SECRET_ACCESS_KEY").isPresent()) {
      return Optional.of("static keys in AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY");
    }
    if (env.setting("aws.profile", "AWS_PROFILE").isPresent()) {
      return Optional.of("a named profile (AWS_PROFILE)");
    }
    Optional<Path> credentials =
        sharedFile(env, "aws.sharedCredentialsFile", "AWS_SHARED_CREDENTIALS_FILE", "credentials");
    if (credentials.isPresent()) {
      return Optional.of("the shared credentials file " + credentials.get());
    }
    Optional<Path> config = sharedFile(env, "aws.configFile", "AWS_CONFIG_FILE", "config");
    if (config.isPresent()) {
      return Optional.of("the shared config file " + config.get());
    }
    return Optional.empty();
  }

  private static Optional<Path> sharedFile(
      AwsEnvironment env, String property, String envVar, String defaultName) {
    Optional<Path> path =
        env.setting(property, envVar)
            .map(value -> expandHome(value, env))
            .or(() -> env.home().map(h -> h.resolve(".aws").resolve(defaultName)));
    return path.filter(env::isFile);
  }

  /** {@code ~/x} as the SDK expands it. */
  private static Path expandHome(String value, AwsEnvironment env) {
    if (value.equals("~") || value.startsWith("~/")) {
      Optional<Path> home = env.home();
      if (home.isPresent()) {
        return value.length() == 1 ? home.get() : home.get().resolve(value.substring(2));
      }
    }
    return Path.of(value);
  }
}
