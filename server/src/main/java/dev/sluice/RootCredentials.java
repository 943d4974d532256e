package dev.sluice;

import dev.sluice.auth.SecretHasher;
import dev.sluice.config.ConfigException;
import dev.sluice.store.DatabaseConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;

/**
 * The root principal's credentials for {@link Bootstrap}: from {@code SLUICE_BOOTSTRAP_CREDENTIALS}
 * ({@code <client-id>:<secret>}) or generated, and the slow hash of the secret. On the first start
 * of an embedded store (its file not there yet) the hash is begun at once on a thread of its own,
 * so that it runs on another core while the schema is created rather than after it; otherwise it is
 * computed when asked for, which after the first start is never.
 */
final class RootCredentials {
  private final String clientId;
  private final String secret;
  private final boolean generated;
  private final FutureTask<String> hash;

  private RootCredentials(String clientId, String secret, boolean generated, boolean ahead) {
    this.clientId = clientId;
    this.secret = secret;
    this.generated = generated;
    this.hash = new FutureTask<>(() -> SecretHasher.hash(secret));
    if (ahead && secret != null) {
      Thread thread = new Thread(hash, "sluice-bootstrap-hash");
      thread.setDaemon(true);
      thread.start();
    }
  }

  /**
   * The credentials {@code bootstrapCredentials} names, or generated ones when it is null or blank.
   * A malformed value is reported when they are used ({@link #clientId}), that is on the first
   * start only.
   */
  static RootCredentials of(String bootstrapCredentials) {
    return of(bootstrapCredentials, false);
  }

  /**
   * As {@link #of(String)}, hashing ahead when {@code database} is an embedded store not made yet.
   */
  static RootCredentials of(String bootstrapCredentials, DatabaseConfig database) {
    return of(bootstrapCredentials, firstEmbeddedStart(database));
  }

  private static RootCredentials of(String bootstrapCredentials, boolean ahead) {
    if (bootstrapCredentials == null || bootstrapCredentials.isBlank()) {
      return new RootCredentials(
          SecretHasher.randomToken(8), SecretHasher.randomToken(16), true, ahead);
    }
    int colon = bootstrapCredentials.indexOf(':');
    if (colon <= 0 || colon == bootstrapCredentials.length() - 1) {
      return new RootCredentials(null, null, false, false);
    }
    return new RootCredentials(
        bootstrapCredentials.substring(0, colon),
        bootstrapCredentials.substring(colon + 1),
        false,
        ahead);
  }

  /** Whether {@code database} is an embedded H2 file that does not exist yet. */
  static boolean firstEmbeddedStart(DatabaseConfig database) {
    if (!database.h2File()) {
      return false;
    }
    String path = database.url().substring("jdbc:h2:file:".length());
    int options = path.indexOf(';');
    return !Files.exists(Path.of((options < 0 ? path : path.substring(0, options)) + ".mv.db"));
  }

  /** Whether the credentials were generated (no {@code SLUICE_BOOTSTRAP_CREDENTIALS}). */
  boolean generated() {
    return generated;
  }

  String clientId() {
    if (clientId == null) {
      throw new ConfigException("SLUICE_BOOTSTRAP_CREDENTIALS must be <client-id>:<secret>");
    }
    return clientId;
  }

  String secret() {
    clientId(); // the same check
    return secret;
  }

  /** The stored form of the secret ({@link SecretHasher#hash}), waiting for a hash begun ahead. */
  String hash() {
    clientId(); // the same check
    hash.run(); // does nothing when the thread has run it or runs it: get() waits for that run
    try {
      return hash.get();
    } catch (ExecutionException e) {
      throw new IllegalStateException("Cannot hash the root secret", e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while hashing the root secret", e);
    }
  }
}
