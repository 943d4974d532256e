package dev.sluice.cli;

import dev.sluice.tls.ClientTls;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.function.Function;
import javax.net.ssl.SSLContext;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * Where the server is and who we are, shared by every admin command. Each comes from its flag, else
 * its environment variable, else the profile ({@link Profiles}), so that secrets need not appear on
 * the command line (and in shell history).
 */
final class ConnectionOptions {
  static final String DEFAULT_BASE_URL = "http://127.0.0.1:8181";

  /** The environment; tests give their own. */
  static volatile Function<String, String> environment = System::getenv;

  @Option(
      names = "--profile",
      paramLabel = "NAME",
      defaultValue = "${env:" + Profiles.ENV_PROFILE + "}",
      description =
          "A named connection of the CLI config file (default: env SLUICE_PROFILE, else the"
              + " file's 'default' profile if any); flags and env vars override its keys")
  String profile;

  @Option(
      names = "--cli-config",
      paramLabel = "FILE",
      defaultValue = "${env:" + Profiles.ENV_FILE + "}",
      description =
          "The CLI config file with the profiles (default: env SLUICE_CLI_CONFIG, else"
              + " ~/.config/sluice/cli.yaml)")
  Path cliConfig;

  @Option(
      names = "--base-url",
      paramLabel = "URL",
      defaultValue = "${env:SLUICE_BASE_URL}",
      description =
          "Server address (default: env SLUICE_BASE_URL, else the profile's url, else "
              + DEFAULT_BASE_URL
              + ")")
  String baseUrl;

  @Option(
      names = "--client-id",
      paramLabel = "ID",
      defaultValue = "${env:SLUICE_CLIENT_ID}",
      description = "OAuth2 client id (default: env SLUICE_CLIENT_ID, else the profile's)")
  String clientId;

  // The default is never shown in help: it is a secret.
  @Option(
      names = "--client-secret",
      paramLabel = "SECRET",
      defaultValue = "${env:SLUICE_CLIENT_SECRET}",
      description =
          "OAuth2 client secret (default: env SLUICE_CLIENT_SECRET, else the profile's"
              + " clientSecretEnv or clientSecretFile)")
  String clientSecret;

  @Option(
      names = "--ca-file",
      paramLabel = "PEM",
      defaultValue = "${env:SLUICE_CA_FILE}",
      description =
          "CA certificate(s) to trust for an https:// server, instead of the JVM's trust store"
              + " (default: env SLUICE_CA_FILE, else the profile's caFile)")
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
    try {
      applyProfile();
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage());
    }
    if (isBlank(clientId)) {
      throw new ParameterException(
          spec.commandLine(),
          "Missing client id: pass --client-id, set SLUICE_CLIENT_ID or use a --profile");
    }
    if (isBlank(clientSecret)) {
      throw new ParameterException(
          spec.commandLine(),
          "Missing client secret: pass --client-secret, set SLUICE_CLIENT_SECRET or use a"
              + " --profile");
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

  /** Fills what neither a flag nor the environment gave from the profile, if one applies. */
  private void applyProfile() {
    Path file = cliConfig != null ? cliConfig : Profiles.defaultFile(environment);
    Profiles.Profile p = Profiles.load(file, profile, environment);
    if (p != null) {
      baseUrl = isBlank(baseUrl) ? p.url() : baseUrl;
      clientId = isBlank(clientId) ? p.clientId() : clientId;
      caFile = caFile == null ? p.caFile() : caFile;
      clientCert = clientCert == null ? p.clientCert() : clientCert;
      clientKey = clientKey == null ? p.clientKey() : clientKey;
      if (isBlank(clientSecret)) {
        clientSecret = p.secret().get();
      }
    }
    if (isBlank(baseUrl)) {
      baseUrl = DEFAULT_BASE_URL;
    }
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
