package dev.sluice.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.cli.ImportReport.Entry;
import dev.sluice.cli.ImportReport.Outcome;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * One run of {@code sluice catalogs import}: walks the source's namespaces (nested too), tables and
 * views, creates the namespaces the target lacks, and registers each table and view by its metadata
 * location. Each object is decided on its own against what the target holds now, so a run is
 * idempotent and an interrupted one resumes where it stopped: a name the target already holds at
 * the source's metadata location (or at a later one that continues from it, the import's own
 * unfreeze commit) is {@code unchanged}; at any other, {@code skipped}. Sluice's location rules are
 * the target's to apply: a registration it refuses is {@code skipped} with its reason. A dry run
 * writes nothing anywhere and predicts overlaps between the source's own tables.
 *
 * <p>With a freeze property (the source is a Sluice that enforces the write freeze), each table and
 * view is frozen in the source before its metadata location is read, registered, and unfrozen in
 * the target: from then on only the target accepts writes.
 */
final class CatalogImport {
  /** What to import and how. {@code freezeProperty}: null unless the source is to be frozen. */
  record Plan(
      String targetCatalog,
      List<Namespace> namespaces,
      boolean dryRun,
      String freezeProperty,
      String freezeReason) {}

  private final ManagementClient target;
  private final IcebergPaths paths;
  private final SourceCatalog source;
  private final Plan plan;
  private final Consumer<String> progress;
  private final ImportReport report = new ImportReport();
  private final Set<List<String>> ensured = new HashSet<>();
  private final Set<List<String>> unusable = new HashSet<>();
  private final Set<List<String>> wouldCreate = new HashSet<>();
  private final Map<String, String> plannedLocations = new LinkedHashMap<>();
  private int tables;
  private int views;

  CatalogImport(
      ManagementClient target,
      IcebergPaths paths,
      SourceCatalog source,
      Plan plan,
      Consumer<String> progress) {
    this.target = target;
    this.paths = paths;
    this.source = source;
    this.plan = plan;
    this.progress = progress;
  }

  ImportReport report() {
    return report;
  }

  int tables() {
    return tables;
  }

  int views() {
    return views;
  }

  void run() {
    List<List<String>> namespaces = walk();
    Map<List<String>, List<String>> tableNames = new LinkedHashMap<>();
    Map<List<String>, List<String>> viewNames = new LinkedHashMap<>();
    for (List<String> namespace : namespaces) {
      tableNames.put(namespace, source.names(namespace, false));
      viewNames.put(namespace, source.names(namespace, true));
      tables += tableNames.get(namespace).size();
      views += viewNames.get(namespace).size();
    }
    int total = tables + views;
    progress.accept(
        "importing "
            + tables
            + " tables and "
            + views
            + " views in "
            + namespaces.size()
            + " namespaces from "
            + source.uri()
            + (plan.dryRun() ? " (dry run: nothing is written)" : ""));
    int done = 0;
    for (List<String> namespace : namespaces) {
      boolean present = ensureNamespace(namespace);
      Set<String> takenTables = present ? targetNames(namespace, false) : Set.of();
      Set<String> takenViews = present ? targetNames(namespace, true) : Set.of();
      for (String name : tableNames.get(namespace)) {
        record(++done, total, importObject(namespace, name, false, takenTables.contains(name)));
      }
      for (String name : viewNames.get(namespace)) {
        record(++done, total, importObject(namespace, name, true, takenViews.contains(name)));
      }
    }
  }

  private void record(int index, int total, Entry entry) {
    report.add(entry);
    progress.accept("[" + index + "/" + total + "] " + entry.line());
  }

  /** The namespaces to import, parents first: the given ones (or all) and their descendants. */
  private List<List<String>> walk() {
    List<List<String>> roots = new ArrayList<>();
    if (plan.namespaces().isEmpty()) {
      roots.addAll(source.namespaces(List.of()));
    } else {
      for (Namespace given : plan.namespaces()) {
        try {
          source.namespaceProperties(given.levels());
        } catch (ApiException e) {
          throw new AdminFailure(
              "cannot read namespace "
                  + given
                  + " of the source "
                  + source.uri()
                  + ": "
                  + e.getMessage());
        }
        roots.add(given.levels());
      }
    }
    List<List<String>> all = new ArrayList<>();
    Set<List<String>> seen = new HashSet<>();
    for (List<String> root : roots) {
      descend(root, all, seen);
    }
    return all;
  }

  private void descend(List<String> namespace, List<List<String>> all, Set<List<String>> seen) {
    if (!seen.add(namespace)) {
      return;
    }
    all.add(namespace);
    for (List<String> child : source.namespaces(namespace)) {
      descend(child, all, seen);
    }
  }

  /**
   * Makes sure the target has {@code namespace} and its parents (a namespace given by name may have
   * parents the walk did not visit), created with the source's properties; whether it is there now.
   */
  private boolean ensureNamespace(List<String> namespace) {
    for (int depth = 1; depth < namespace.size(); depth++) {
      List<String> parent = List.copyOf(namespace.subList(0, depth));
      if (!ensureOne(parent, false)) {
        if (wouldCreate.contains(parent)) {
          wouldCreate.add(namespace);
          note(namespace, Outcome.WOULD_CREATE, null);
        } else {
          unusable(namespace, "its parent namespace " + dotted(parent) + " is not there");
        }
        return false;
      }
    }
    return ensureOne(namespace, true);
  }

  /**
   * Whether {@code namespace} is in the target now; {@code visited}: say so when it was already.
   */
  private boolean ensureOne(List<String> namespace, boolean visited) {
    if (ensured.contains(namespace)) {
      return true;
    }
    if (unusable.contains(namespace) || wouldCreate.contains(namespace)) {
      return false;
    }
    Namespace ns = new Namespace(namespace);
    try {
      target.iceberg("GET", paths.namespace(ns), null);
      ensured.add(namespace);
      if (visited) {
        note(namespace, Outcome.EXISTS, null);
      }
      return true;
    } catch (ApiException e) {
      if (e.status() != 404) {
        return unusable(namespace, e.getMessage());
      }
    }
    if (plan.dryRun()) {
      wouldCreate.add(namespace);
      note(namespace, Outcome.WOULD_CREATE, null);
      return false;
    }
    try {
      Map<String, String> properties = source.namespaceProperties(namespace);
      target.iceberg("POST", paths.namespaces(), Bodies.newNamespace(namespace, properties));
      ensured.add(namespace);
      note(namespace, Outcome.CREATED, null);
      return true;
    } catch (ApiException e) {
      return unusable(namespace, e.getMessage());
    }
  }

  private boolean unusable(List<String> namespace, String reason) {
    unusable.add(namespace);
    note(namespace, Outcome.SKIPPED, reason);
    return false;
  }

  private void note(List<String> namespace, Outcome outcome, String reason) {
    Entry entry = new Entry("namespace", dotted(namespace), outcome, reason, null);
    report.add(entry);
    progress.accept(entry.line());
  }

  private Set<String> targetNames(List<String> namespace, boolean view) {
    Namespace ns = new Namespace(namespace);
    JsonNode list = target.icebergList(view ? paths.views(ns) : paths.tables(ns), "identifiers");
    Set<String> names = new HashSet<>();
    Lists.items(list, "identifiers").forEach(id -> names.add(id.path("name").asText()));
    return names;
  }

  private Entry importObject(List<String> namespace, String name, boolean view, boolean taken) {
    String kind = view ? "view" : "table";
    String qualified = dotted(namespace) + "." + name;
    if (unusable.contains(namespace)) {
      return new Entry(
          kind,
          qualified,
          Outcome.SKIPPED,
          "namespace " + dotted(namespace) + " was not imported",
          null);
    }
    String stage = "reading it from the source";
    String location = null;
    try {
      JsonNode loaded = source.load(namespace, name, view);
      location = loaded.path("metadata-location").asText(null);
      JsonNode metadata = loaded.path("metadata");
      if (location == null) {
        return new Entry(
            kind, qualified, Outcome.SKIPPED, "the source answers no metadata location", null);
      }
      String uuid = metadata.path(view ? "view-uuid" : "table-uuid").asText();
      if (plan.freezeProperty() != null
          && !plan.dryRun()
          && !metadata.path("properties").has(plan.freezeProperty())) {
        stage = "freezing it in the source";
        JsonNode frozen =
            source.commit(
                namespace,
                name,
                view,
                Bodies.propertyCommit(view, uuid, plan.freezeProperty(), plan.freezeReason()));
        location = frozen.path("metadata-location").asText();
      }
      Namespace ns = new Namespace(namespace);
      String path = view ? paths.view(ns, name) : paths.table(ns, name);
      if (taken) {
        stage = "reading it from the target";
        JsonNode existing = target.iceberg("GET", path, null);
        String existingLocation = existing.path("metadata-location").asText();
        if (!existingLocation.equals(location)
            && !continuesFrom(existing.path("metadata"), location, metadata, view)) {
          return new Entry(
              kind,
              qualified,
              Outcome.SKIPPED,
              "the target already holds a "
                  + kind
                  + " of this name at metadata location "
                  + existingLocation
                  + ", the source's is "
                  + location,
              location);
        }
        if (frozenInTarget(existing)) {
          stage = "unfreezing it in the target";
          unfreeze(path, view, existing);
          return new Entry(kind, qualified, Outcome.REGISTERED, null, location);
        }
        return new Entry(kind, qualified, Outcome.UNCHANGED, null, location);
      }
      if (plan.dryRun()) {
        String overlap =
            view ? null : predictedOverlap(qualified, metadata.path("location").asText());
        return overlap != null
            ? new Entry(kind, qualified, Outcome.SKIPPED, overlap, location)
            : new Entry(kind, qualified, Outcome.WOULD_REGISTER, null, location);
      }
      stage = "registering it";
      JsonNode registered =
          target.iceberg("POST", paths.register(ns, view), Bodies.register(name, location));
      if (frozenInTarget(registered)) {
        stage = "unfreezing it in the target";
        unfreeze(path, view, registered);
      }
      return new Entry(kind, qualified, Outcome.REGISTERED, null, location);
    } catch (ApiException e) {
      String reason =
          stage.equals("registering it") ? e.getMessage() : stage + ": " + e.getMessage();
      boolean refused = e.status() / 100 == 4;
      return new Entry(
          kind, qualified, refused ? Outcome.SKIPPED : Outcome.FAILED, reason, location);
    }
  }

  /** Whether the target's object carries the freeze this import set (to be removed there). */
  private boolean frozenInTarget(JsonNode answer) {
    return plan.freezeProperty() != null
        && answer.path("metadata").path("properties").has(plan.freezeProperty());
  }

  private void unfreeze(String path, boolean view, JsonNode answer) {
    JsonNode metadata = answer.path("metadata");
    String uuid = metadata.path(view ? "view-uuid" : "table-uuid").asText();
    target.iceberg("POST", path, Bodies.propertyCommit(view, uuid, plan.freezeProperty(), null));
  }

  /**
   * Whether the target's metadata continues from the source's: the same table whose metadata log
   * holds the source's metadata file, or the same view holding the source's current version.
   */
  private static boolean continuesFrom(
      JsonNode existing, String sourceLocation, JsonNode sourceMetadata, boolean view) {
    String uuidField = view ? "view-uuid" : "table-uuid";
    if (!existing.path(uuidField).asText("").equals(sourceMetadata.path(uuidField).asText())) {
      return false;
    }
    if (!view) {
      for (JsonNode entry : existing.path("metadata-log")) {
        if (sourceLocation.equals(entry.path("metadata-file").asText())) {
          return true;
        }
      }
      return false;
    }
    long current = sourceMetadata.path("current-version-id").asLong(-1);
    for (JsonNode version : sourceMetadata.path("versions")) {
      if (version.path("version-id").asLong() == current) {
        for (JsonNode held : existing.path("versions")) {
          if (held.equals(version)) {
            return true;
          }
        }
      }
    }
    return false;
  }

  /** A dry run's prediction: the table's location overlaps one already planned. */
  private String predictedOverlap(String table, String location) {
    String mine = location.replaceAll("/+$", "");
    for (Map.Entry<String, String> planned : plannedLocations.entrySet()) {
      String other = planned.getValue();
      if (mine.equals(other) || mine.startsWith(other + "/") || other.startsWith(mine + "/")) {
        return "its location "
            + mine
            + " overlaps that of table "
            + planned.getKey()
            + " ("
            + other
            + ")";
      }
    }
    plannedLocations.put(table, mine);
    return null;
  }

  private static String dotted(List<String> namespace) {
    return String.join(".", namespace);
  }
}
