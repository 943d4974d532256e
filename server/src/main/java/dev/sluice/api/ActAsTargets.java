package dev.sluice.api;

import java.util.List;

/**
 * {@code GET /principal-roles/{role}/act-as}: the principal roles a holder of the role may act for
 * (PRINCIPAL_ACT_AS), by name: a delegated token it obtains for a user activates only the user's
 * roles among these.
 */
public record ActAsTargets(List<String> targets) {
  public ActAsTargets {
    targets = Fields.copy(targets);
  }
}
