package dev.sluice.operations;

import dev.sluice.store.NamespacePath;
import dev.sluice.store.SecurableRef;
import java.util.List;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.BadRequestException;

/** The securable an Iceberg REST path names: what grants are checked against. */
public final class Securables {
  private Securables() {}

  public static SecurableRef namespace(Namespace ns) {
    if (ns.isEmpty()) {
      throw new BadRequestException("Invalid namespace: must not be empty");
    }
    return SecurableRef.namespace(new NamespacePath(List.of(ns.levels())));
  }

  public static SecurableRef tableRef(TableIdentifier id) {
    return SecurableRef.table(namespace(id.namespace()).namespace(), id.name());
  }

  public static SecurableRef viewRef(TableIdentifier id) {
    return SecurableRef.view(namespace(id.namespace()).namespace(), id.name());
  }
}
