-- Federated catalogs (catalog_type EXTERNAL): how to reach the remote catalog, as JSON text like
-- storage_config; null for INTERNAL catalogs.
ALTER TABLE catalogs ADD COLUMN connection_config VARCHAR;

-- The locations of a federated catalog's tables, claimed like location_claims (V4, keyed as V8
-- keys them: one row per ancestor prefix of a claim's key, root first), so that no table of any
-- catalog, federated or not, overlaps another in one storage. Sluice keeps no pointer for these
-- tables, so a claim refers to its catalog only and goes with it; it is taken when the table's
-- locations are checked (under the storage_roots locks of V4) and given up when the table is
-- dropped, renamed or seen gone.
CREATE TABLE remote_location_claims (
    prefix_key        VARCHAR(2100) NOT NULL,
    location_key      VARCHAR(2100) NOT NULL,
    catalog_name      VARCHAR(256)  NOT NULL REFERENCES catalogs (name) ON DELETE CASCADE,
    ns_path           VARCHAR(2048) NOT NULL,
    name              VARCHAR(1024) NOT NULL
);
CREATE INDEX remote_location_claims_by_prefix ON remote_location_claims (prefix_key);
CREATE INDEX remote_location_claims_by_location ON remote_location_claims (location_key);
CREATE INDEX remote_location_claims_by_table ON remote_location_claims (catalog_name, ns_path, name);
