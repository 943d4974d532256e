package dev.sluice.vending;

import static java.util.Objects.requireNonNull;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * How a table response lets an engine reach the table's files, decided once per request from the
 * client's {@code X-Iceberg-Access-Delegation} header, what the catalog offers and the caller's
 * privileges: not at all ({@link #NONE}), or by one {@link Kind} with an {@link AccessMode}.
 */
public record Delegation(Kind kind, Optional<AccessMode> mode) {
  public static final Delegation NONE = new Delegation(null, Optional.empty());

  /** The spec's delegation mechanisms, in the order Sluice prefers them. */
  public enum Kind {
    VENDED_CREDENTIALS("vended-credentials"),
    REMOTE_SIGNING("remote-signing");

    private final String headerValue;

    Kind(String headerValue) {
      this.headerValue = headerValue;
    }

    /** The value in {@code X-Iceberg-Access-Delegation}. */
    public String headerValue() {
      return headerValue;
    }
  }

  public Delegation {
    requireNonNull(mode, "mode");
    if ((kind == null) != mode.isEmpty()) {
      throw new IllegalArgumentException("A delegation has both a kind and a mode, or neither");
    }
  }

  public static Delegation of(Kind kind, AccessMode mode) {
    return new Delegation(requireNonNull(kind, "kind"), Optional.of(mode));
  }

  public boolean isNone() {
    return kind == null;
  }

  /**
   * The kinds a client asked for in {@code X-Iceberg-Access-Delegation} (a comma-separated list);
   * unknown values are ignored, as the spec allows, and an absent header asks for none.
   */
  public static Set<Kind> requested(String header) {
    Set<Kind> kinds = EnumSet.noneOf(Kind.class);
    if (header == null) {
      return kinds;
    }
    Arrays.stream(header.split(","))
        .map(value -> value.trim().toLowerCase(Locale.ROOT))
        .forEach(
            value -> {
              for (Kind kind : Kind.values()) {
                if (kind.headerValue.equals(value)) {
                  kinds.add(kind);
                }
              }
            });
    return kinds;
  }

  /**
   * True when the client declined delegation outright ({@code X-Iceberg-Access-Delegation: none}, a
   * Sluice extension): it gets no credentials even from a catalog that delegates unasked. The web
   * console sends it, so browsing never mints a credential nor puts one in a browser.
   */
  public static boolean declined(String header) {
    return header != null && header.trim().equalsIgnoreCase("none");
  }

  /**
   * The kind to use for a client that asked for {@code requested} on a catalog that offers {@code
   * offered}: the first offered kind the client asked for; without one, none when the catalog
   * delegates only on request, else the first it offers.
   */
  public static Optional<Kind> choose(
      Set<Kind> requested, Set<Kind> offered, boolean onlyOnRequest) {
    for (Kind kind : Kind.values()) {
      if (offered.contains(kind) && requested.contains(kind)) {
        return Optional.of(kind);
      }
    }
    if (onlyOnRequest) {
      return Optional.empty();
    }
    return Arrays.stream(Kind.values()).filter(offered::contains).findFirst();
  }
}
