package dev.sluice.testing;

import dev.sluice.store.ContentKind;
import dev.sluice.store.ContentRecord;
import dev.sluice.store.NamespacePath;
import dev.sluice.store.PageRequest;
import dev.sluice.store.Store;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the store holds for some catalogs, read directly (names need not survive a URL): every
 * namespace with its properties, every table and view with its metadata pointer, version and
 * claimed locations. Two snapshots are equal exactly when nothing of that changed.
 */
public final class CatalogSnapshot {
  private CatalogSnapshot() {}

  public static String of(Store store, List<String> catalogs) {
    StringBuilder sb = new StringBuilder();
    for (String catalog : catalogs) {
      sb.append("catalog ").append(catalog).append('\n');
      walk(store, catalog, new NamespacePath(List.of()), sb);
    }
    return sb.toString();
  }

  private static void walk(Store store, String catalog, NamespacePath parent, StringBuilder sb) {
    for (NamespacePath ns : store.listNamespaces(catalog, parent, PageRequest.all()).items()) {
      Map<String, String> properties =
          new TreeMap<>(store.loadNamespace(catalog, ns).orElseThrow());
      sb.append("  namespace ").append(ns.levels()).append(' ').append(properties).append('\n');
      for (ContentKind kind : ContentKind.values()) {
        for (String name : store.listContents(catalog, ns, kind, PageRequest.all()).items()) {
          ContentRecord content = store.getContent(catalog, ns, name).orElseThrow();
          sb.append("    ")
              .append(kind)
              .append(' ')
              .append(name)
              .append(" -> ")
              .append(content.metadataLocation())
              .append(" v")
              .append(content.version())
              .append(" claims ")
              .append(store.claimedLocations(catalog, ns, name))
              .append('\n');
        }
      }
      walk(store, catalog, ns, sb);
    }
  }
}
