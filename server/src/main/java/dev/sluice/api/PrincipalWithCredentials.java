package dev.sluice.api;

/** A principal created or rotated, with its new secret: the only answer that ever shows one. */
public record PrincipalWithCredentials(Principal principal, Credentials credentials) {
  /** The client credentials to exchange for tokens. */
  public record Credentials(String clientId, String clientSecret) {
    @Override
    public String toString() {
      return "Credentials[clientId=" + clientId + ", clientSecret=<redacted>]";
    }
  }
}
