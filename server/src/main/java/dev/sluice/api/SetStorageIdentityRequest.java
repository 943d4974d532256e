package dev.sluice.api;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * {@code PUT /catalogs/{catalog}/namespaces/{namespace}/storage-identity}: the storage identity
 * that vends for every table below the namespace, in place of the catalog's own. Its keys are the
 * catalog's storage type's (the OpenAPI document's {@code StorageIdentity}; S3: {@code roleArn},
 * {@code externalId}, {@code credentialSource}), checked by the storage backend.
 */
public record SetStorageIdentityRequest(@JsonProperty(required = true) ObjectNode storageIdentity) {
  public SetStorageIdentityRequest {
    if (storageIdentity == null) {
      throw new IllegalArgumentException("Missing field: storageIdentity");
    }
  }
}
