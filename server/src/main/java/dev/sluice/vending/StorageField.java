package dev.sluice.vending;

import static java.util.Objects.requireNonNull;

/**
 * One {@code storageConfigInfo} key a backend offers in the console's catalog form: its key as the
 * backend parses it, a label, an optional hint, and what kind of input it takes. The console reads
 * these from the server, so a new backend's form needs no console change. {@code required}: a
 * definition without it is refused (the console marks it before submitting; the backend's parse
 * stays the judge).
 */
public record StorageField(String key, String label, String hint, Kind kind, boolean required) {
  /** The input a field takes, and how its value is sent (a string, number, boolean or list). */
  public enum Kind {
    TEXT,
    NUMBER,
    BOOLEAN,
    LIST
  }

  public StorageField {
    requireNonNull(key, "key");
    requireNonNull(label, "label");
    requireNonNull(kind, "kind");
    if (key.isBlank() || label.isBlank()) {
      throw new IllegalArgumentException("A storage field needs a key and a label: " + key);
    }
  }

  public static StorageField text(String key, String label) {
    return new StorageField(key, label, null, Kind.TEXT, false);
  }

  public static StorageField text(String key, String label, String hint) {
    return new StorageField(key, label, hint, Kind.TEXT, false);
  }

  public static StorageField number(String key, String label) {
    return new StorageField(key, label, null, Kind.NUMBER, false);
  }

  public static StorageField bool(String key, String label) {
    return new StorageField(key, label, null, Kind.BOOLEAN, false);
  }

  public static StorageField list(String key, String label, String hint) {
    return new StorageField(key, label, hint, Kind.LIST, false);
  }

  /** This field, which a definition must have. */
  public StorageField asRequired() {
    return new StorageField(key, label, hint, kind, true);
  }

  /** The credential lifetime every vending backend offers. */
  public static StorageField durationSeconds() {
    return number("durationSeconds", "Credential lifetime (s)");
  }
}
