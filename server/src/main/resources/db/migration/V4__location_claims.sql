-- Where tables and views live, so that no two of them overlap (equal, contain or lie inside
-- each other) anywhere in one storage, across catalogs too. Every location a table or view
-- writes to (its location and each write.*.path) is one claim; a claim has one row per
-- ancestor prefix of its key, root first (key: scheme://authority/seg/.../, ending in '/').
-- "An existing claim covers L" is an equality lookup of L's ancestor keys in location_key;
-- "an existing claim lies inside L" is an equality lookup of L's key in prefix_key. Both are
-- index lookups whose cost does not depend on how many tables there are, and neither relies
-- on the database's collation.
CREATE TABLE location_claims (
    prefix_key        VARCHAR(2100) NOT NULL,
    location_key      VARCHAR(2100) NOT NULL,
    catalog_name      VARCHAR(256)  NOT NULL,
    ns_path           VARCHAR(2048) NOT NULL,
    name              VARCHAR(1024) NOT NULL,
    FOREIGN KEY (catalog_name, ns_path, name) REFERENCES contents (catalog_name, ns_path, name)
        ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX location_claims_by_prefix ON location_claims (prefix_key);
CREATE INDEX location_claims_by_location ON location_claims (location_key);
CREATE INDEX location_claims_by_content ON location_claims (catalog_name, ns_path, name);

-- One row per storage root (bucket, container, file system). A transaction that claims
-- locations first locks the rows of their roots (FOR UPDATE), so of two concurrent claims
-- of overlapping locations, on one replica or two, the second sees the first.
CREATE TABLE storage_roots (
    root_key          VARCHAR(2100) NOT NULL PRIMARY KEY
);

-- A namespace claims its location too (its "location" property, else its parent's location
-- plus its name): no namespace may equal, contain or lie inside another namespace's location
-- outside its own ancestry, nor a table's or view's; and no table or view may lie inside a
-- namespace that is not one of its own namespace's ancestors. Without this, a namespace moved
-- onto another namespace's folder would put its tables among that namespace's.
CREATE TABLE namespace_claims (
    prefix_key        VARCHAR(2100) NOT NULL,
    location_key      VARCHAR(2100) NOT NULL,
    catalog_name      VARCHAR(256)  NOT NULL,
    ns_path           VARCHAR(2048) NOT NULL,
    FOREIGN KEY (catalog_name, ns_path) REFERENCES namespaces (catalog_name, ns_path) ON DELETE CASCADE
);
CREATE INDEX namespace_claims_by_prefix ON namespace_claims (prefix_key);
CREATE INDEX namespace_claims_by_location ON namespace_claims (location_key);
CREATE INDEX namespace_claims_by_namespace ON namespace_claims (catalog_name, ns_path);
