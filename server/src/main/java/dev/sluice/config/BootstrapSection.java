package dev.sluice.config;

import static dev.sluice.config.Bounds.orDefault;

/** {@code bootstrap}: what a first start creates besides the root principal. */
public record BootstrapSection(Boolean quickstartCatalog) {
  public static final BootstrapSection DEFAULT = new BootstrapSection(null);

  public BootstrapSection {
    // A file catalog under dataDir, so that a first start can be tried at once.
    quickstartCatalog = orDefault(quickstartCatalog, true);
  }
}
