package dev.sluice.vending;

import dev.sluice.location.LocationPolicy;
import dev.sluice.location.LocationSafety;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * Turns a table's vending request and a scan plan's files into the narrowest request the table's
 * vendor can express ({@link FileScopes} with the vendor's {@link CredentialVendor#fits}). A
 * candidate fits only when every object and prefix in it passes the same safety checks as a table's
 * locations (an object key with an IAM wildcard is never named; its directory may be).
 */
final class PlanScoping {
  private PlanScoping() {}

  /** The scope for {@code files} of the table {@code table} describes (its locations, READ). */
  static FileScope scope(
      CredentialVendor vendor,
      LocationPolicy policy,
      VendingRequest table,
      Collection<String> files) {
    return FileScopes.narrowest(
        table.locations(), files, candidate -> fits(vendor, policy, table, candidate));
  }

  /** The request for {@code scope}: the table's own for {@link FileScope.Narrowness#TABLE}. */
  static VendingRequest request(VendingRequest table, FileScope scope) {
    if (scope.narrowness() == FileScope.Narrowness.TABLE) {
      return table;
    }
    return new VendingRequest(
        table.tableLocation(),
        scope.prefixes(),
        scope.objects(),
        AccessMode.READ,
        table.principal(),
        table.attribution());
  }

  private static boolean fits(
      CredentialVendor vendor, LocationPolicy policy, VendingRequest table, FileScope candidate) {
    List<String> named = new ArrayList<>(candidate.objects());
    named.addAll(candidate.prefixes());
    for (String location : named) {
      Optional<String> unsafe =
          LocationSafety.unsafe(location, policy).or(() -> vendor.unsafe(location));
      if (unsafe.isPresent()) {
        return false;
      }
    }
    if (!candidate.prefixes().isEmpty() && vendor.unscopable(candidate.prefixes()).isPresent()) {
      return false;
    }
    return vendor.fits(request(table, candidate));
  }
}
