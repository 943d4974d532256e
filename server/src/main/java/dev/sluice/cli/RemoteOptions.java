package dev.sluice.cli;

import dev.sluice.api.AuthenticationParameters;
import dev.sluice.api.ConnectionConfigInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * {@code --type external} and the remote catalog a federated catalog fronts: {@code
 * connectionConfigInfo} from one flag per key. The secret itself is never a flag: {@code
 * --remote-secret-ref} names it in the server's {@code federation.secrets}.
 */
final class RemoteOptions {
  @Option(
      names = "--type",
      paramLabel = "TYPE",
      description = "internal (default) or external: a federated catalog in front of --remote-uri")
  String type;

  @Option(
      names = "--remote-uri",
      paramLabel = "URI",
      description = "external: the remote Iceberg REST catalog's base URL")
  String uri;

  @Option(
      names = "--remote-catalog",
      paramLabel = "NAME",
      description = "external: the remote catalog's name (its warehouse)")
  String remoteCatalog;

  @Option(
      names = "--remote-auth",
      paramLabel = "AUTH",
      description = "external: oauth (default), bearer or implicit")
  String auth;

  @Option(
      names = "--remote-client-id",
      paramLabel = "ID",
      description = "external, oauth: the client id at the remote")
  String clientId;

  @Option(
      names = "--remote-secret-ref",
      paramLabel = "NAME",
      description =
          "external, oauth or bearer: the name of the secret in the server's federation.secrets")
  String secretReference;

  @Option(
      names = "--remote-token-uri",
      paramLabel = "URI",
      description = "external, oauth: the remote's token endpoint (default: its v1/oauth/tokens)")
  String tokenUri;

  @Option(
      names = "--remote-scope",
      paramLabel = "SCOPE",
      description = "external, oauth: a scope to ask for (repeatable)")
  List<String> scopes = new ArrayList<>();

  /** The catalog type the flags ask for: INTERNAL or EXTERNAL. */
  String type(CommandSpec command) {
    String asked = type == null ? "INTERNAL" : type.toUpperCase(Locale.ROOT);
    if (!asked.equals("INTERNAL") && !asked.equals("EXTERNAL")) {
      throw new ParameterException(
          command.commandLine(), "Invalid --type: " + type + " (internal or external)");
    }
    return asked;
  }

  /** The connection of an external catalog, or null for an internal one (refusing remote flags). */
  ConnectionConfigInfo connection(CommandSpec command) {
    boolean external = type(command).equals("EXTERNAL");
    boolean remoteFlags =
        uri != null
            || remoteCatalog != null
            || auth != null
            || clientId != null
            || secretReference != null
            || tokenUri != null
            || !scopes.isEmpty();
    if (!external) {
      if (remoteFlags) {
        throw new ParameterException(
            command.commandLine(), "The --remote-* options need --type external");
      }
      return null;
    }
    if (uri == null) {
      throw new ParameterException(command.commandLine(), "--type external needs --remote-uri");
    }
    try {
      return new ConnectionConfigInfo(
          ConnectionConfigInfo.ICEBERG_REST,
          uri,
          remoteCatalog,
          new AuthenticationParameters(
              auth == null ? AuthenticationParameters.OAUTH : auth,
              tokenUri,
              clientId,
              scopes.isEmpty() ? null : scopes,
              secretReference),
          ConnectionConfigInfo.DROP);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(command.commandLine(), e.getMessage());
    }
  }
}
