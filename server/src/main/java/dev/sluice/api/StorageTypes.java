package dev.sluice.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * {@code GET /storage-types}: the storage types this server has, each with the {@code
 * storageConfigInfo} keys its catalog form offers, so a console builds its form from the server.
 */
public record StorageTypes(List<StorageType> storageTypes) {
  public StorageTypes {
    storageTypes = Fields.copy(storageTypes);
  }

  /**
   * One storage type, whether its catalogs must name a credential source of the server's config,
   * and its form's fields, in order.
   */
  public record StorageType(String storageType, boolean credentialSource, List<FormField> fields) {
    public StorageType {
      fields = Fields.copy(fields);
    }
  }

  /**
   * One key of a form: label, optional hint, kind ({@code text}, {@code number}, ...), and whether
   * a definition must have it.
   */
  public record FormField(
      String key,
      String label,
      @JsonInclude(JsonInclude.Include.NON_NULL) String hint,
      String kind,
      boolean required) {}
}
