package dev.sluice.cli;

import dev.sluice.api.PrincipalWithCredentials;
import java.io.PrintWriter;

/** The one place that prints a client secret: right after the server minted it. */
final class Credentials {
  private final String clientId;
  private final String clientSecret;

  private Credentials(String clientId, String clientSecret) {
    this.clientId = clientId;
    this.clientSecret = clientSecret;
  }

  /** The {@code credentials} of a create or rotate answer. */
  static Credentials from(PrincipalWithCredentials answer) {
    PrincipalWithCredentials.Credentials credentials = answer == null ? null : answer.credentials();
    if (credentials == null
        || credentials.clientId() == null
        || credentials.clientSecret() == null) {
      throw new AdminFailure("the server's response carries no credentials");
    }
    return new Credentials(credentials.clientId(), credentials.clientSecret());
  }

  void print(PrintWriter out) {
    out.println("client id: " + clientId);
    out.println("client secret: " + clientSecret);
    out.println("(the secret is shown only this once: store it now)");
  }
}
