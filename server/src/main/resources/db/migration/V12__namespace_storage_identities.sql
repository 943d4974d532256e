-- A storage identity per namespace: the identity (for S3, a role and optionally an external id
-- and a credential source) that vends for every table below the namespace, in place of the
-- catalog's own; the nearest ancestor namespace with one wins. The identity is JSON text whose
-- keys belong to the catalog's storage backend, not the store. Keyed like its namespace, and
-- dropped with it (ON DELETE CASCADE), so a namespace created again under the same name starts
-- without one; a catalog cannot be dropped while it holds namespaces.
CREATE TABLE namespace_storage_identities (
    catalog_name      VARCHAR(256)  NOT NULL,
    ns_path           VARCHAR(2048) NOT NULL,
    identity_json     VARCHAR       NOT NULL,
    updated_at        BIGINT        NOT NULL,
    PRIMARY KEY (catalog_name, ns_path),
    FOREIGN KEY (catalog_name, ns_path) REFERENCES namespaces (catalog_name, ns_path) ON DELETE CASCADE
);
