package dev.sluice.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.api.Grant;
import dev.sluice.api.GrantRequest;
import dev.sluice.authz.Privilege;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;

/**
 * Grants or revokes one privilege on one securable. Grant is {@code PUT .../grants}, revoke is
 * {@code POST} to the same path with the same body (Polaris's shape; {@code ?force=true} with
 * {@code --force}). Subclasses say what the securable is. The privilege is sent upper-cased; one
 * the CLI does not know ({@link Privilege}, the server's own list, shipped in the same jar) is a
 * usage error that lists the valid ones, before any call.
 */
abstract class PrivilegeChange extends AdminCommand {
  @Parameters(
      index = "0",
      paramLabel = "PRIVILEGE",
      description = "Privilege, e.g. TABLE_READ_DATA")
  String privilege;

  private final boolean revoke;

  PrivilegeChange(boolean revoke) {
    this.revoke = revoke;
  }

  /** The grant of {@code privilege} on this securable. */
  abstract Grant grant(String privilege);

  /** The securable for people: {@code namespace sales}, {@code table sales.orders}. */
  abstract String securable();

  /** A revoke's {@code --force} and {@code --yes}; null for a grant. */
  Revocation revocation() {
    return null;
  }

  @Override
  final void run(ManagementClient client, Console console) {
    PrivilegesCommand role = PrivilegesCommand.enclosing(spec);
    String upper = privilege.toUpperCase(Locale.ROOT);
    if (Arrays.stream(Privilege.values()).noneMatch(p -> p.name().equals(upper))) {
      throw new ParameterException(
          spec.commandLine(),
          "Unknown privilege '"
              + privilege
              + "': one of "
              + Arrays.stream(Privilege.values())
                  .map(Enum::name)
                  .collect(Collectors.joining(", ")));
    }
    Revocation revocation = revocation();
    if (revocation != null) {
      revocation.confirmation.require(
          "revoke " + upper + " on " + securable() + " from catalog role " + role.catalogRole);
    }
    String path = role.grantsPath() + (revocation != null && revocation.force ? "?force=true" : "");
    GrantRequest body = new GrantRequest(grant(upper));
    JsonNode response = revoke ? client.post(path, body) : client.put(path, body);
    String verb = revoke ? "revoked " : "granted ";
    String preposition = revoke ? " from" : " to";
    console.show(
        response,
        out ->
            out.println(
                verb
                    + upper
                    + " on "
                    + securable()
                    + preposition
                    + " catalog role "
                    + role.catalogRole));
  }
}
