package dev.sluice.testing;

import java.util.List;

/**
 * The two principals the vending tests share: {@code writer} (principal role {@code writers}) and
 * {@code reader} (principal role {@code readers}), each granted through a catalog role per catalog.
 * {credentials} = {clientId, secret}.
 */
public record WriterAndReader(Admin admin, String[] writer, String[] reader) {
  /** What a writer usually holds on its namespaces: write data, create tables, all metadata. */
  public static final List<String> WRITE =
      List.of("TABLE_WRITE_DATA", "TABLE_CREATE", "TABLE_FULL_METADATA");

  /** The catalog role {@link #writes(String, List)} grants through. */
  public static final String WRITE_ROLE = "write_all";

  /** The catalog role {@link #reads(String, List)} grants through. */
  public static final String READ_ROLE = "read_sales";

  /** Creates both principals (and their principal roles), with no grant yet. */
  public static WriterAndReader create(Admin admin) throws Exception {
    return new WriterAndReader(
        admin, admin.principal("writer", "writers"), admin.principal("reader", "readers"));
  }

  /** The writer gets {@link #WRITE} on {@code namespaces} of {@code catalog}. */
  public WriterAndReader writes(String catalog, List<String> namespaces) throws Exception {
    return writes(catalog, WRITE_ROLE, namespaces, WRITE);
  }

  /** The writer gets {@code privileges} on {@code namespaces} through {@code catalogRole}. */
  public WriterAndReader writes(
      String catalog, String catalogRole, List<String> namespaces, List<String> privileges)
      throws Exception {
    return grant(catalog, catalogRole, "writers", namespaces, privileges);
  }

  /** The reader gets TABLE_READ_DATA on {@code namespaces} of {@code catalog}. */
  public WriterAndReader reads(String catalog, List<String> namespaces) throws Exception {
    return reads(catalog, READ_ROLE, namespaces);
  }

  /** As above, through {@code catalogRole}. */
  public WriterAndReader reads(String catalog, String catalogRole, List<String> namespaces)
      throws Exception {
    return grant(catalog, catalogRole, "readers", namespaces, List.of("TABLE_READ_DATA"));
  }

  private WriterAndReader grant(
      String catalog,
      String catalogRole,
      String principalRole,
      List<String> namespaces,
      List<String> privileges)
      throws Exception {
    admin.catalogRole(catalog, catalogRole, principalRole);
    for (String namespace : namespaces) {
      for (String privilege : privileges) {
        admin.grant(
            catalog,
            catalogRole,
            Admin.grantJson("namespace", List.of(namespace), null, privilege));
      }
    }
    return this;
  }
}
