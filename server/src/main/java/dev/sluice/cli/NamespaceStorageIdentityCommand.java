package dev.sluice.cli;

import dev.sluice.api.NamespaceStorageIdentity;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * {@code sluice namespaces storage-identity set|get|clear --catalog C NAMESPACE}: the storage
 * identity that vends for every table below a namespace in place of the catalog's own (the service
 * admin's), through the management API. The keys are the catalog's storage type's and are checked
 * by the server; the flags name the S3 ones, {@code --field KEY=VALUE} any other.
 */
@Command(
    name = "storage-identity",
    description =
        "Show, set or clear the storage identity (for S3: a role) that vends for the tables below a"
            + " namespace.",
    subcommands = {
      NamespaceStorageIdentityCommand.Get.class,
      NamespaceStorageIdentityCommand.Set.class,
      NamespaceStorageIdentityCommand.Clear.class
    })
final class NamespaceStorageIdentityCommand extends CommandGroup {

  /** The management API path of {@code namespace}'s identity: levels joined by U+001F. */
  static String path(String catalog, Namespace namespace) {
    return ApiPath.of(
        "catalogs",
        catalog,
        "namespaces",
        String.join("\u001f", namespace.levels()),
        "storage-identity");
  }

  @Command(
      name = "get",
      description =
          "Show which identity vends for the namespace's tables: its own, an ancestor's, or the"
              + " catalog's.")
  static final class Get extends NamespacesCommand.OneNamespace {
    @Override
    void run(ManagementClient client, Console console) {
      console.show(
          client.fetch(path(catalog, namespace), NamespaceStorageIdentity.class),
          NamespaceStorageIdentityCommand::print);
    }
  }

  @Command(name = "set", description = "Set (or replace) the namespace's storage identity.")
  static final class Set extends NamespacesCommand.OneNamespace {
    @Option(names = "--role-arn", paramLabel = "ARN", description = "The role to assume (S3)")
    String roleArn;

    @Option(
        names = "--external-id",
        paramLabel = "ID",
        description = "The external id the role's trust policy asks for (S3)")
    String externalId;

    @Option(
        names = "--credential-source",
        paramLabel = "NAME",
        description =
            "The server's storage.credentialSources entry that assumes the role (default: the"
                + " catalog's)")
    String credentialSource;

    @Option(
        names = "--field",
        paramLabel = "KEY=VALUE",
        description = "Any other key of the storage type's identity (repeatable)")
    Map<String, String> fields = new LinkedHashMap<>();

    @Override
    void run(ManagementClient client, Console console) {
      Map<String, String> identity = new LinkedHashMap<>(fields);
      put(identity, "roleArn", roleArn);
      put(identity, "externalId", externalId);
      put(identity, "credentialSource", credentialSource);
      if (identity.isEmpty()) {
        throw new ParameterException(
            spec.commandLine(), "Give the identity: --role-arn (S3), or --field KEY=VALUE");
      }
      console.show(
          client.put(
              path(catalog, namespace),
              Bodies.storageIdentity(identity),
              NamespaceStorageIdentity.class),
          NamespaceStorageIdentityCommand::print);
    }

    private static void put(Map<String, String> identity, String key, String value) {
      if (value != null) {
        identity.put(key, value);
      }
    }
  }

  @Command(
      name = "clear",
      description =
          "Clear the namespace's storage identity: its tables vend with an ancestor's, else the"
              + " catalog's.")
  static final class Clear extends NamespacesCommand.OneNamespace {
    @Mixin Confirmation confirmation;

    @Override
    void run(ManagementClient client, Console console) {
      confirmation.require(
          "clear the storage identity of namespace " + namespace + " of catalog " + catalog);
      console.show(
          client.delete(path(catalog, namespace)),
          out ->
              out.println(
                  "cleared the storage identity of namespace "
                      + namespace
                      + " of catalog "
                      + catalog));
    }
  }

  static void print(PrintWriter out, NamespaceStorageIdentity identity) {
    String namespace = String.join(".", identity.namespace());
    switch (identity.source()) {
      case "catalog" ->
          out.println(
              "namespace "
                  + namespace
                  + " of catalog "
                  + identity.catalog()
                  + ": no storage identity of its own or above; the catalog's vends");
      case "ancestor" ->
          out.println(
              "namespace "
                  + namespace
                  + " of catalog "
                  + identity.catalog()
                  + ": the storage identity of "
                  + String.join(".", identity.definedOn())
                  + " vends");
      default ->
          out.println(
              "namespace " + namespace + " of catalog " + identity.catalog() + ": its own vends");
    }
    if (identity.storageIdentity() != null) {
      TextTable table = new TextTable("KEY", "VALUE");
      identity
          .storageIdentity()
          .fields()
          .forEachRemaining(f -> table.row(f.getKey(), f.getValue().asText()));
      table.print(out);
    }
  }
}
