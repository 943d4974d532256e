package dev.sluice.config;

import static dev.sluice.config.Bounds.orDefault;

/**
 * {@code auth.delegation}: token exchange with an actor. {@code unsignedSubjects} lets an actor
 * that holds PRINCIPAL_ACT_AS name its user with an unsigned JWT (Trino's {@code
 * iceberg.rest-catalog.session=USER}), trusting the engine to have authenticated the user.
 */
public record DelegationSection(Boolean unsignedSubjects) {
  public static final DelegationSection DEFAULT = new DelegationSection(null);

  public DelegationSection {
    unsignedSubjects = orDefault(unsignedSubjects, false);
  }
}
