package dev.sluice.http;

import dev.sluice.store.NamespacePath;
import dev.sluice.store.SecurableRef;
import java.util.List;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.BadRequestException;

/** The securable an Iceberg REST path names: what grants are checked against. */
final class Securables {
  private Securables() {}

  static SecurableRef namespace(Namespace ns) {
    if (ns.isEmpty()) {
      throw new BadRequestException("Invalid namespace: must not be empty");
    }
    return SecurableRef.namespace(new NamespacePath(List.of(ns.levels())));
  }

  static SecurableRef tableRef(TableIdentifier id) {
    return SecurableRef.table(namespace(id.namespace()).namespace(), id.name());
  }

  static SecurableRef viewRef(TableIdentifier id) {
    return SecurableRef.view(namespace(id.namespace()).namespace(), id.name());
  }
}
