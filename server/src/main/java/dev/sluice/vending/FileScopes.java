package dev.sluice.vending;

import dev.sluice.location.StorageLocation;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * Narrows a scan plan's credential to its files, for any backend: the exact objects if the backend
 * can name them all ({@code fits}), else the files' directories merged upwards, deepest first and
 * never above the table's own locations, until they fit; else the table's locations. Pure: the
 * backend's limit is the predicate. Prefixes keep the files' own spelling (an engine matches a
 * credential to a file by string prefix) and always end at a segment boundary, so {@code .../p=1/}
 * never covers {@code .../p=10/}.
 */
public final class FileScopes {
  private FileScopes() {}

  /**
   * The narrowest scope covering {@code files} that {@code fits}. Throws {@link
   * IllegalArgumentException} naming the first file that is not an object strictly inside one of
   * {@code tableLocations}.
   */
  public static FileScope narrowest(
      List<String> tableLocations, Collection<String> files, Predicate<FileScope> fits) {
    List<StorageLocation> roots = tableLocations.stream().map(StorageLocation::parse).toList();
    if (roots.isEmpty()) {
      throw new IllegalArgumentException("A table has at least one location");
    }
    List<String> objects = objectsInside(roots, files);
    FileScope table = new FileScope(FileScope.Narrowness.TABLE, List.of(), tableLocations);
    if (objects.isEmpty()) {
      return table;
    }
    FileScope exact = new FileScope(FileScope.Narrowness.OBJECTS, objects, List.of());
    if (fits.test(exact)) {
      return exact;
    }
    Prefixes current = new Prefixes(roots);
    objects.forEach(object -> current.add(parent(object)));
    while (true) {
      FileScope candidate = current.scope(table);
      if (fits.test(candidate)) {
        return candidate;
      }
      var groups = current.deepestGroups();
      if (groups.isEmpty()) {
        return table;
      }
      // Fewest lifts at this depth that fit: the biggest groups first (they save the most
      // prefixes); a backend's limit only grows harder with more or longer prefixes.
      Prefixes all = current.lift(groups, groups.size());
      if (!fits.test(all.scope(table))) {
        current.replaceWith(all);
        continue;
      }
      int lo = 1;
      int hi = groups.size();
      while (lo < hi) {
        int mid = (lo + hi) >>> 1;
        if (fits.test(current.lift(groups, mid).scope(table))) {
          hi = mid;
        } else {
          lo = mid + 1;
        }
      }
      return current.lift(groups, lo).scope(table);
    }
  }

  /**
   * The prefixes a credential for {@code objects} and {@code prefixes} is offered under, one per
   * storage root: the longest common directory of the objects' directories and the prefixes there
   * (an engine picks, per file, the longest credential prefix the file's path starts with).
   */
  public static List<String> commonDirectories(List<String> objects, List<String> prefixes) {
    Map<String, String> common = new TreeMap<>();
    objects.forEach(
        o ->
            common.merge(
                StorageLocation.parse(o).rootKey(), parent(o), FileScopes::commonDirectory));
    prefixes.forEach(
        p ->
            common.merge(
                StorageLocation.parse(p).rootKey(), withSlash(p), FileScopes::commonDirectory));
    return List.copyOf(common.values());
  }

  /**
   * Throws {@link IllegalArgumentException} naming the first of {@code files} that is not an object
   * strictly inside one of {@code tableLocations}.
   */
  public static void requireInside(List<String> tableLocations, Collection<String> files) {
    objectsInside(tableLocations.stream().map(StorageLocation::parse).toList(), files);
  }

  private static String withSlash(String prefix) {
    return prefix.endsWith("/") ? prefix : prefix + "/";
  }

  /** The distinct files, sorted; each must be an object strictly inside one of {@code roots}. */
  private static List<String> objectsInside(List<StorageLocation> roots, Collection<String> files) {
    TreeSet<String> objects = new TreeSet<>();
    for (String file : files) {
      StorageLocation parsed;
      try {
        parsed = StorageLocation.parse(file);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("File is not a valid location: " + file, e);
      }
      if (file.endsWith("/")) {
        throw new IllegalArgumentException("File names a directory, not an object: " + file);
      }
      boolean inside =
          roots.stream()
              .anyMatch(
                  root -> root.covers(parsed) && parsed.segments().size() > root.segments().size());
      if (!inside) {
        throw new IllegalArgumentException("File lies outside the table's locations: " + file);
      }
      objects.add(file);
    }
    return List.copyOf(objects);
  }

  /** The directory holding {@code location} (an object, or a prefix ending in '/'). */
  static String parent(String location) {
    String trimmed =
        location.endsWith("/") ? location.substring(0, location.length() - 1) : location;
    return trimmed.substring(0, trimmed.lastIndexOf('/') + 1);
  }

  private static String commonDirectory(String a, String b) {
    int n = Math.min(a.length(), b.length());
    int i = 0;
    while (i < n && a.charAt(i) == b.charAt(i)) {
      i++;
    }
    String common = a.substring(0, i);
    return common.substring(0, common.lastIndexOf('/') + 1);
  }

  /** A set of directory prefixes, nested ones folded into their parents, with their depths. */
  private static final class Prefixes {
    private record Prefix(String text, StorageLocation parsed) {}

    private final List<StorageLocation> roots;

    /** By {@link StorageLocation#key()}: a prefix's descendants are the keys it starts. */
    private final TreeMap<String, Prefix> byKey = new TreeMap<>();

    Prefixes(List<StorageLocation> roots) {
      this.roots = roots;
    }

    void add(String text) {
      StorageLocation parsed = StorageLocation.parse(text);
      for (String ancestor : parsed.ancestorKeys()) {
        if (byKey.containsKey(ancestor)) {
          return;
        }
      }
      String key = parsed.key();
      byKey.subMap(key, key + Character.MAX_VALUE).clear();
      byKey.put(key, new Prefix(text, parsed));
    }

    void replaceWith(Prefixes other) {
      byKey.clear();
      byKey.putAll(other.byKey);
    }

    /** The shallowest depth {@code prefix} may be lifted to: its outermost table location's. */
    private int floor(StorageLocation prefix) {
      return roots.stream()
          .filter(root -> root.covers(prefix))
          .mapToInt(root -> root.segments().size())
          .min()
          .orElseThrow();
    }

    /**
     * The deepest prefixes that may still be lifted, grouped by parent, biggest group first (then
     * by parent, for a deterministic answer); empty when every prefix is a table location.
     */
    List<List<Prefix>> deepestGroups() {
      int deepest = -1;
      for (Prefix p : byKey.values()) {
        int depth = p.parsed().segments().size();
        if (depth > deepest && depth > floor(p.parsed())) {
          deepest = depth;
        }
      }
      Map<String, List<Prefix>> byParent = new TreeMap<>();
      for (Prefix p : byKey.values()) {
        if (p.parsed().segments().size() == deepest && deepest > floor(p.parsed())) {
          byParent.computeIfAbsent(parent(p.text()), k -> new ArrayList<>()).add(p);
        }
      }
      List<List<Prefix>> groups = new ArrayList<>(byParent.values());
      groups.sort(
          Comparator.comparing((List<Prefix> g) -> -g.size())
              .thenComparing(g -> parent(g.get(0).text())));
      return groups;
    }

    /** A copy with the first {@code count} groups each replaced by their parent. */
    Prefixes lift(List<List<Prefix>> groups, int count) {
      Prefixes lifted = new Prefixes(roots);
      lifted.byKey.putAll(byKey);
      for (List<Prefix> group : groups.subList(0, count)) {
        group.forEach(p -> lifted.byKey.remove(p.parsed().key()));
      }
      for (List<Prefix> group : groups.subList(0, count)) {
        lifted.add(parent(group.get(0).text()));
      }
      return lifted;
    }

    /** As a scope: TABLE when the prefixes are exactly the table's locations. */
    FileScope scope(FileScope table) {
      List<String> prefixes = byKey.values().stream().map(Prefix::text).sorted().toList();
      boolean allRoots =
          byKey.values().stream()
              .allMatch(
                  p -> roots.stream().anyMatch(r -> r.covers(p.parsed()) && p.parsed().covers(r)));
      boolean coversAllRoots =
          roots.stream().allMatch(r -> byKey.values().stream().anyMatch(p -> p.parsed().covers(r)));
      if (allRoots && coversAllRoots) {
        return table;
      }
      return new FileScope(FileScope.Narrowness.PREFIXES, List.of(), prefixes);
    }
  }
}
