package dev.sluice.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.api.RotatedSigningKey;
import dev.sluice.api.SigningKeys;
import dev.sluice.api.SigningKeys.SigningKey;
import java.time.Instant;
import java.util.Objects;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/**
 * {@code sluice signing-keys list|rotate|retire}: the keys the server signs its tokens with (ids
 * and ages only; the material never leaves the server). The service admin's.
 */
@Command(
    name = "signing-keys",
    description = "List, rotate and retire the token signing keys.",
    subcommands = {
      SigningKeysCommand.ListKeys.class,
      SigningKeysCommand.Rotate.class,
      SigningKeysCommand.Retire.class
    })
public final class SigningKeysCommand extends CommandGroup {
  private static final String KEYS = "signing-keys";

  @Command(name = "list", description = "List the signing keys, the active one first.")
  static final class ListKeys extends AdminCommand {
    @Override
    void run(ManagementClient client, Console console) {
      console.show(
          client.fetch(ApiPath.of(KEYS), SigningKeys.class),
          (out, keys) -> {
            TextTable table = new TextTable("KID", "CREATED", "ACTIVE");
            for (SigningKey key : keys.keys()) {
              table.row(
                  Objects.toString(key.kid(), ""),
                  Instant.ofEpochMilli(key.createdAt()).toString(),
                  key.active() ? "yes" : "no");
            }
            Lists.print(out, table, "no signing keys");
          });
    }
  }

  @Command(
      name = "rotate",
      description =
          "Add a key that signs new tokens (on every replica within 30 s); tokens signed with"
              + " older keys stay valid until they expire.")
  static final class Rotate extends AdminCommand {
    @Override
    void run(ManagementClient client, Console console) {
      console.show(
          client.post(ApiPath.of(KEYS, "rotate"), null, RotatedSigningKey.class),
          (out, rotated) -> out.println("new signing key " + rotated.kid()));
    }
  }

  @Command(
      name = "retire",
      description =
          "Retire an older key: every token it signed is refused (on every replica within 30 s).")
  static final class Retire extends AdminCommand {
    @Parameters(index = "0", paramLabel = "KID", description = "Key id, from signing-keys list")
    String kid;

    @Mixin Confirmation confirmation;

    @Override
    void run(ManagementClient client, Console console) {
      confirmation.require("retire signing key " + kid + " (every token it signed is refused)");
      JsonNode response = client.delete(ApiPath.of(KEYS, kid));
      console.show(response, out -> out.println("retired signing key " + kid));
    }
  }
}
