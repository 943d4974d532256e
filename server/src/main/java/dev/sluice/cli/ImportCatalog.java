package dev.sluice.cli;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;

/**
 * {@code sluice catalogs import TARGET --from URI}: registers every table and view of another
 * Iceberg REST catalog into a Sluice catalog by metadata location ({@link CatalogImport}); one line
 * per object and a summary; exit status 1 when anything was skipped or failed.
 */
@Command(
    name = "import",
    description =
        "Register every table and view of another Iceberg REST catalog in a Sluice catalog, by"
            + " metadata location (no data moves). Idempotent and resumable; exit 1 when anything"
            + " was skipped or failed.")
final class ImportCatalog extends AdminCommand {
  static final String CUTOVER_DOC = "docs/MIGRATING.md (\"Cutover without a write freeze\")";

  @Parameters(index = "0", paramLabel = "TARGET", description = "The Sluice catalog to import into")
  String catalog;

  @Option(
      names = "--from",
      required = true,
      paramLabel = "URI",
      description =
          "The source's Iceberg REST base URI (what a RESTCatalog's uri is, e.g."
              + " http://old:8181 or https://sluice/api/catalog)")
  URI from;

  @Option(
      names = "--from-warehouse",
      paramLabel = "W",
      description = "The source's warehouse (catalog name), sent to its /v1/config")
  String fromWarehouse;

  @Option(
      names = "--from-client-id",
      paramLabel = "ID",
      description = "OAuth2 client id at the source (with --from-client-secret-env)")
  String fromClientId;

  @Option(
      names = "--from-client-secret-env",
      paramLabel = "VAR",
      description = "The environment variable holding the source's client secret")
  String fromClientSecretEnv;

  @Option(
      names = "--from-scope",
      paramLabel = "SCOPE",
      defaultValue = TokenClient.SCOPE,
      description = "The OAuth2 scope asked of the source (default: ${DEFAULT-VALUE})")
  String fromScope;

  @Option(
      names = "--from-token-env",
      paramLabel = "VAR",
      description = "The environment variable holding a bearer token for the source")
  String fromTokenEnv;

  @Option(
      names = "--namespace",
      paramLabel = "NAMESPACE",
      converter = Namespace.Converter.class,
      description = "Import only this namespace and those below it (repeatable; default: all)")
  List<Namespace> namespaces = new ArrayList<>();

  @Option(names = "--dry-run", description = "Report what would be done; write nothing anywhere")
  boolean dryRun;

  @Option(
      names = "--freeze-source",
      description =
          "Freeze each table and view in the source (property sluice.write-frozen) before reading"
              + " its metadata location, then unfreeze it in the target; only for a Sluice source")
  boolean freezeSource;

  @Override
  void run(ManagementClient client, Console console) {
    SourceCatalog.Auth auth = auth();
    if (!"http".equals(from.getScheme()) && !"https".equals(from.getScheme())) {
      throw new ParameterException(
          spec.commandLine(), "--from must be an http:// or https:// URI, got " + from);
    }
    IcebergPaths paths = IcebergPaths.of(client, catalog);
    SourceCatalog source = SourceCatalog.connect(new HttpTransport(), from, fromWarehouse, auth);
    String freezeProperty = null;
    if (freezeSource) {
      freezeProperty = source.freezeProperty();
      if (freezeProperty == null) {
        throw new AdminFailure(
            "--freeze-source needs a source that enforces Sluice's write freeze, and "
                + source.uri()
                + " does not say it does (its /v1/config names no "
                + SourceCatalog.FREEZE_CONFIG
                + "). Stop the writers yourself and follow the cutover steps in "
                + CUTOVER_DOC);
      }
    }
    String reason = "moved to " + client.base() + "/api/catalog, catalog " + catalog;
    CatalogImport run =
        new CatalogImport(
            client,
            paths,
            source,
            new CatalogImport.Plan(catalog, namespaces, dryRun, freezeProperty, reason),
            console::note);
    run.run();
    ImportReport report = run.report();
    String summary = report.summary(run.tables(), run.views());
    console.show(
        report.document(source.uri(), catalog, dryRun),
        out -> out.println((dryRun ? "dry run: " : "imported ") + summary));
    if (!report.clean()) {
      throw new AdminFailure(
          "not everything was imported ("
              + summary
              + "): see the skipped and failed lines; a re-run retries them");
    }
  }

  /** The source's credential from the environment, checked before any call. */
  private SourceCatalog.Auth auth() {
    if (fromTokenEnv != null && fromClientId != null) {
      throw new ParameterException(
          spec.commandLine(), "Pass either --from-token-env or --from-client-id, not both");
    }
    if (fromTokenEnv != null) {
      return new SourceCatalog.Auth(fromEnv(fromTokenEnv, "--from-token-env"), null, null, null);
    }
    if (fromClientId != null) {
      if (fromClientSecretEnv == null) {
        throw new ParameterException(
            spec.commandLine(), "--from-client-id needs --from-client-secret-env VAR");
      }
      return new SourceCatalog.Auth(
          null, fromClientId, fromEnv(fromClientSecretEnv, "--from-client-secret-env"), fromScope);
    }
    if (fromClientSecretEnv != null) {
      throw new ParameterException(
          spec.commandLine(), "--from-client-secret-env needs --from-client-id ID");
    }
    return SourceCatalog.Auth.none();
  }

  private String fromEnv(String variable, String option) {
    String value = ConnectionOptions.environment.apply(variable);
    if (value == null || value.isBlank()) {
      throw new ParameterException(
          spec.commandLine(),
          option + " names " + variable + ", which is not set in the environment");
    }
    return value;
  }
}
