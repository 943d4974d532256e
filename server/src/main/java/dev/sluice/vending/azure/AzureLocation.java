package dev.sluice.vending.azure;

import static java.util.Objects.requireNonNull;

import dev.sluice.location.StorageLocation;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An ADLS Gen2 or Blob location: {@code abfss://<container>@<account>.dfs.<suffix>/<path>} or
 * {@code wasbs://<container>@<account>.blob.<suffix>/<path>} (HTTPS schemes only), split into what
 * a SAS is scoped to. {@code host} is the location's own host: Iceberg's ADLSFileIO names its
 * per-account keys after it.
 */
public record AzureLocation(String container, String host, String account, List<String> segments) {
  private static final Pattern HOST =
      Pattern.compile("([a-z0-9]{3,24})\\.(dfs|blob)\\.([a-z0-9.-]+)");

  /** Azure's rule: 3 to 63 characters, lower-case letters, digits and single inner hyphens. */
  private static final Pattern CONTAINER = Pattern.compile("(?=.{3,63}$)[a-z0-9](?:-?[a-z0-9])+");

  public AzureLocation {
    requireNonNull(container, "container");
    requireNonNull(host, "host");
    requireNonNull(account, "account");
    segments = List.copyOf(segments);
  }

  /** Parses {@code location}; an {@link IllegalArgumentException} says what is wrong with it. */
  public static AzureLocation parse(String location) {
    StorageLocation parsed = StorageLocation.parse(location);
    String scheme = parsed.scheme();
    if (!scheme.equals("abfss") && !scheme.equals("wasbs")) {
      throw new IllegalArgumentException(
          location + " is not an abfss:// or wasbs:// location (plain-HTTP schemes are refused)");
    }
    String authority = parsed.authority();
    int at = authority.indexOf('@');
    if (at <= 0) {
      throw new IllegalArgumentException(
          location + " names no container (" + scheme + "://<container>@<account>...)");
    }
    String container = authority.substring(0, at);
    String host = authority.substring(at + 1).toLowerCase(Locale.ROOT);
    Matcher matcher = HOST.matcher(host);
    if (!matcher.matches()) {
      throw new IllegalArgumentException(
          location + ": " + host + " is not <account>.dfs.<suffix> or <account>.blob.<suffix>");
    }
    if (scheme.equals("abfss") != matcher.group(2).equals("dfs")) {
      throw new IllegalArgumentException(
          location + ": abfss:// goes with a .dfs. host, wasbs:// with a .blob. host");
    }
    if (!CONTAINER.matcher(container).matches()) {
      throw new IllegalArgumentException(location + ": " + container + " is not a container name");
    }
    return new AzureLocation(container, host, matcher.group(1), parsed.segments());
  }

  /** The directory path inside the container, without slashes at either end ("" for the root). */
  public String directory() {
    return String.join("/", segments);
  }

  /** True when this location is the container itself. */
  public boolean isContainerRoot() {
    return segments.isEmpty();
  }

  /** True when every path under {@code other} is under this location. */
  public boolean covers(AzureLocation other) {
    return host.equals(other.host)
        && container.equals(other.container)
        && other.segments.size() >= segments.size()
        && other.segments.subList(0, segments.size()).equals(segments);
  }
}
