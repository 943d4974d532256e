package dev.sluice.location;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A storage location split into scheme, authority and path segments, so containment is decided
 * segment by segment: {@code file:/w/a} covers {@code file:/w/a/b} but not {@code file:/w/ab}.
 * {@code file:/p}, {@code file:///p} and {@code /p} are the same place, and so are {@code
 * s3a://b/p} and {@code s3://b/p}, and an Azure container's Blob and DFS spellings (see {@link
 * #key()}).
 */
public record StorageLocation(String scheme, String authority, List<String> segments) {
  /**
   * Schemes that are another name of one storage: S3's backends take Hadoop's {@code s3a://} for
   * {@code s3://}, and a credential for either reaches the same objects. Folded when parsing, so
   * one place has one key however it is spelled: otherwise a table at {@code s3a://b/t} would not
   * overlap one at {@code s3://b/t}, and each would be vended a credential for the other's files.
   * Each backend declares its spellings ({@code vending.SameStorage}), checked against these keys
   * when it is registered. The keys are stored with every location claim, so a new folding needs a
   * migration that re-keys them.
   */
  private static final Map<String, String> SAME_STORAGE = Map.of("s3a", "s3");

  /** The Blob spelling of an Azure container, keyed as its DFS one ({@link #storageKey}). */
  private static final String AZURE_BLOB = "wasbs";

  /**
   * An Azure authority, {@code container@account.(dfs|blob).suffix}: host names are
   * case-insensitive, and the Blob endpoint ({@code wasbs://}) reaches the same container as the
   * DFS one ({@code abfss://}), so a credential for either reaches the same files.
   */
  private static final Pattern AZURE_AUTHORITY =
      Pattern.compile("([^@/]+)@([^./]+)\\.(?:dfs|blob)\\.(.+)", Pattern.CASE_INSENSITIVE);

  public StorageLocation {
    segments = List.copyOf(segments);
  }

  /** The schemes whose locations are keyed under another scheme's spelling. */
  public static Set<String> foldedSchemes() {
    Set<String> folded = new TreeSet<>(SAME_STORAGE.keySet());
    folded.add(AZURE_BLOB);
    return Set.copyOf(folded);
  }

  public static StorageLocation parse(String location) {
    if (location == null || location.isBlank()) {
      throw new IllegalArgumentException("Invalid location: empty");
    }
    for (int i = 0; i < location.length(); i++) {
      if (Character.isISOControl(location.charAt(i))) {
        throw new IllegalArgumentException(
            "Invalid location (control character): " + location.replaceAll("\\p{Cntrl}", "?"));
      }
    }
    String scheme;
    String authority = "";
    String path;
    int colon = location.indexOf(':');
    int slash = location.indexOf('/');
    if (colon > 0 && (slash < 0 || colon < slash)) {
      scheme = location.substring(0, colon).toLowerCase(Locale.ROOT);
      scheme = SAME_STORAGE.getOrDefault(scheme, scheme);
      String rest = location.substring(colon + 1);
      if (rest.startsWith("//")) {
        int end = rest.indexOf('/', 2);
        authority = end < 0 ? rest.substring(2) : rest.substring(2, end);
        path = end < 0 ? "" : rest.substring(end);
      } else {
        path = rest;
      }
    } else {
      scheme = "file";
      path = location;
    }
    if (scheme.equals("file") && !path.startsWith("/")) {
      throw new IllegalArgumentException("Invalid location (not absolute): " + location);
    }
    List<String> segments = new ArrayList<>();
    String[] parts = path.split("/", -1);
    for (int i = 0; i < parts.length; i++) {
      String segment = parts[i];
      if (segment.isEmpty()) {
        // Only the slash a path starts or ends with: an inner empty segment ("ns//t") would be
        // folded away in a prefix, so a credential for it would miss the location's own files.
        if (i == 0 || i == parts.length - 1) {
          continue;
        }
        throw new IllegalArgumentException("Invalid location (empty segment): " + location);
      }
      if (segment.equals(".") || segment.equals("..")) {
        throw new IllegalArgumentException("Invalid location (relative segment): " + location);
      }
      segments.add(segment);
    }
    return new StorageLocation(scheme, authority, segments);
  }

  /**
   * The location as an index key: {@code scheme://authority/seg1/seg2/}, always ending in one
   * slash, so "{@code a} covers {@code b}" is "{@code b.key()} starts with {@code a.key()}" and
   * {@code file:/p}, {@code file:///p} and {@code /p} have one key.
   */
  public String key() {
    return prefixKey(segments.size());
  }

  /** The keys of this location and every ancestor, from the storage root down to {@link #key()}. */
  public List<String> ancestorKeys() {
    List<String> keys = new ArrayList<>(segments.size() + 1);
    for (int depth = 0; depth <= segments.size(); depth++) {
      keys.add(prefixKey(depth));
    }
    return keys;
  }

  /** The key of the storage root (bucket, container or file system) this location lies in. */
  public String rootKey() {
    return prefixKey(0);
  }

  private String prefixKey(int depth) {
    StringBuilder key = new StringBuilder(storageKey());
    for (int i = 0; i < depth; i++) {
      key.append(segments.get(i)).append('/');
    }
    return key.toString();
  }

  /**
   * True when {@code path} parses and one of {@code roots} covers it; an unparsable path is covered
   * by none.
   */
  public static boolean anyCovers(List<StorageLocation> roots, String path) {
    StorageLocation parsed;
    try {
      parsed = parse(path);
    } catch (IllegalArgumentException e) {
      return false;
    }
    return roots.stream().anyMatch(root -> root.covers(parsed));
  }

  /** True when {@code other} is this location or lies below it. */
  public boolean covers(StorageLocation other) {
    return storageKey().equals(other.storageKey())
        && other.segments.size() >= segments.size()
        && other.segments.subList(0, segments.size()).equals(segments);
  }

  /**
   * The storage root as one spelling, {@code scheme://authority/}: the parsed one, except that an
   * Azure container is keyed by its DFS endpoint with the host in lower case, whichever endpoint
   * and case the location was written with. Only keys and containment use it; the location itself
   * (and the host Iceberg's ADLSFileIO names its credentials after) stays as written.
   */
  private String storageKey() {
    if (scheme.equals("abfss") || scheme.equals(AZURE_BLOB)) {
      Matcher m = AZURE_AUTHORITY.matcher(authority);
      if (m.matches()) {
        return "abfss://"
            + m.group(1)
            + '@'
            + m.group(2).toLowerCase(Locale.ROOT)
            + ".dfs."
            + m.group(3).toLowerCase(Locale.ROOT)
            + '/';
      }
    }
    return scheme + "://" + authority + '/';
  }

  @Override
  public String toString() {
    String path = "/" + String.join("/", segments);
    return scheme.equals("file") ? "file:" + path : scheme + "://" + authority + path;
  }
}
