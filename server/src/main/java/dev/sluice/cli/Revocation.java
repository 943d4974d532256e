package dev.sluice.cli;

import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The options of {@code privileges ... revoke}: {@code --force} for the catalog's last grant of
 * CATALOG_MANAGE_ACCESS (the server refuses to strip it otherwise), and {@code --yes}.
 */
final class Revocation {
  @Mixin Confirmation confirmation;

  @Option(
      names = "--force",
      description =
          "Revoke it even when it is the catalog's last grant of CATALOG_MANAGE_ACCESS (then only"
              + " the service admin can manage the catalog's roles and grants)")
  boolean force;
}
