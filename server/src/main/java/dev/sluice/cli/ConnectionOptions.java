package dev.sluice.cli;

import dev.sluice.tls.ClientTls;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import javax.net.ssl.SSLContext;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * Where the server is and who we are, shared by every admin command. Defaults come from the
 * environment so that secrets need not appear on the command line (and in shell history).
 */
final class ConnectionOptions {
  static final String DEFAULT_BASE_URL = "http://127.0.0.1:8181";

  @Option(
      names = "--base-url",
      paramLabel = "URL",
      defaultValue = "${env:SLUICE_BASE_URL:-" + DEFAULT_BASE_URL + "}",
      description = "Server address (default: env SLUICE_BASE_URL, else " + DEFAULT_BASE_URL + ")")
  String baseUrl;

  @Option(
      names = "--client-id",
      paramLabel = "ID",
      defaultValue = "${env:SLUICE_CLIENT_ID}",
      description = "OAuth2 client id (default: env SLUICE_CLIENT_ID)")
  String clientId;

  // The default is never shown in help: it is a secret.
  @Option(
      names = "--client-secret",
      paramLabel = "SECRET",
      defaultValue = "${env:SLUICE_CLIENT_SECRET}",
      description = "OAuth2 client secret (default: env SLUICE_CLIENT_SECRET)")
  String clientSecret;

  @Option(
      names = "--ca-file",
      paramLabel = "PEM",
      defaultValue = "${env:SLUICE_CA_FILE}",
      description =
          "CA certificate(s) to trust for an https:// server, instead of the JVM's trust store"
              + " (default: env SLUICE_CA_FILE)")
  Path caFile;

  @Option(
      names = "--client-cert",
      paramLabel = "PEM",
      defaultValue = "${env:SLUICE_CLIENT_CERT}",
      description =
          "Client certificate for a server whose management API requires mTLS (default: env"
              + " SLUICE_CLIENT_CERT)")
  Path clientCert;

  @Option(
      names = "--client-key",
      paramLabel = "PEM",
      defaultValue = "${env:SLUICE_CLIENT_KEY}",
      description = "The client certificate's private key, PKCS#8 (default: env SLUICE_CLIENT_KEY)")
  Path clientKey;

  @Option(
      names = "--output",
      paramLabel = "FORMAT",
      defaultValue = "text",
      converter = OutputFormat.Converter.class,
      description = "text or json (default: text)")
  OutputFormat output;

  /** Validates the options before any network call, reporting problems as usage errors (exit 2). */
  ManagementClient client(CommandSpec spec) {
    if (isBlank(clientId)) {
      throw new ParameterException(
          spec.commandLine(), "Missing client id: pass --client-id or set SLUICE_CLIENT_ID");
    }
    if (isBlank(clientSecret)) {
      throw new ParameterException(
          spec.commandLine(),
          "Missing client secret: pass --client-secret or set SLUICE_CLIENT_SECRET");
    }
    URI base = baseUri(spec);
    SSLContext tls = null;
    if (caFile != null || clientCert != null || clientKey != null) {
      if (!"https".equals(base.getScheme())) {
        throw new ParameterException(
            spec.commandLine(),
            "--ca-file, --client-cert and --client-key need an https:// --base-url, got " + base);
      }
      try {
        tls = ClientTls.context(caFile, clientCert, clientKey);
      } catch (IllegalArgumentException e) {
        throw new ParameterException(spec.commandLine(), e.getMessage());
      }
    }
    return new ManagementClient(base, clientId, clientSecret, new HttpTransport(tls));
  }

  private URI baseUri(CommandSpec spec) {
    String trimmed = baseUrl == null ? "" : baseUrl.trim();
    while (trimmed.endsWith("/")) {
      trimmed = trimmed.substring(0, trimmed.length() - 1);
    }
    try {
      URI uri = new URI(trimmed);
      if (("http".equals(uri.getScheme()) || "https".equals(uri.getScheme()))
          && uri.getHost() != null) {
        return uri;
      }
    } catch (URISyntaxException e) {
      // reported below
    }
    throw new ParameterException(
        spec.commandLine(), "Invalid --base-url '" + baseUrl + "': expected http(s)://host[:port]");
  }

  private static boolean isBlank(String value) {
    return value == null || value.isBlank();
  }
}
