package dev.sluice.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * Which storage identity vends for the tables of a namespace: {@code source} is {@code namespace}
 * (set on it), {@code ancestor} (set on {@code definedOn}, the nearest ancestor with one) or {@code
 * catalog} (none set: the catalog's own {@code storageConfigInfo}). {@code storageIdentity} is the
 * identity that applies, as stored (absent for {@code catalog}), shown as the catalog's {@code
 * storageConfigInfo} is shown to those who may read it.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record NamespaceStorageIdentity(
    @JsonProperty(required = true) String catalog,
    @JsonProperty(required = true) List<String> namespace,
    @JsonProperty(required = true) String source,
    List<String> definedOn,
    ObjectNode storageIdentity) {
  public NamespaceStorageIdentity {
    Fields.nonEmpty(catalog, "catalog");
    namespace = Fields.copy(namespace);
    Fields.nonEmpty(source, "source");
    definedOn = Fields.copyOrNull(definedOn);
  }
}
