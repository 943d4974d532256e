package dev.sluice.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Locale;
import picocli.CommandLine.Parameters;

/**
 * Grants or revokes one privilege on one securable. Grant is {@code PUT .../grants}, revoke is
 * {@code POST} to the same path with the same body (Polaris's shape). Subclasses say what the
 * securable is; the privilege is sent upper-cased and left for the server to validate, so the CLI
 * need not change when the server learns a privilege.
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

  /** Fills {@code type} and the securable's coordinates into the grant object. */
  abstract void describe(ObjectNode grant);

  /** The securable for people: {@code namespace sales}, {@code table sales.orders}. */
  abstract String securable();

  @Override
  final void run(ManagementClient client, Console console) {
    PrivilegesCommand role = PrivilegesCommand.enclosing(spec);
    String upper = privilege.toUpperCase(Locale.ROOT);
    ObjectNode body = Bodies.object();
    ObjectNode grant = body.putObject("grant");
    describe(grant);
    grant.put("privilege", upper);
    JsonNode response =
        revoke ? client.post(role.grantsPath(), body) : client.put(role.grantsPath(), body);
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
