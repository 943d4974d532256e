package dev.sluice.store;

/** What a name in a namespace holds. */
public enum ContentKind {
  TABLE,
  VIEW
}
