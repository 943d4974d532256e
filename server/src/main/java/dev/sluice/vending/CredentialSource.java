package dev.sluice.vending;

/**
 * The catalog's own long-lived identity for one backend, defined in the server's YAML under {@code
 * storage.credentialSources.<name>} (never in the database, never in an API response). Each backend
 * defines its source types ({@link CredentialSourceType}); implementations never print a secret.
 */
public interface CredentialSource {
  /** The name catalogs refer to it by. */
  String name();

  /** Its type, as written in the YAML ({@code static}, {@code default-chain}, ...). */
  String type();
}
