-- Sluice schema, version 1. Portable across H2 (embedded default) and PostgreSQL:
-- plain VARCHAR/BIGINT columns, epoch-millisecond timestamps, JSON kept as text.

CREATE TABLE catalogs (
    name              VARCHAR(256)  NOT NULL PRIMARY KEY,
    catalog_type      VARCHAR(32)   NOT NULL,
    properties        VARCHAR       NOT NULL,
    storage_config    VARCHAR       NOT NULL,
    entity_version    BIGINT        NOT NULL,
    created_at        BIGINT        NOT NULL,
    updated_at        BIGINT        NOT NULL
);

-- A namespace path is its levels joined with U+001F (the separator Iceberg's REST
-- protocol uses); identifiers containing control characters are refused upstream.
CREATE TABLE namespaces (
    catalog_name      VARCHAR(256)  NOT NULL REFERENCES catalogs (name),
    ns_path           VARCHAR(2048) NOT NULL,
    parent_path       VARCHAR(2048) NOT NULL,
    properties        VARCHAR       NOT NULL,
    created_at        BIGINT        NOT NULL,
    updated_at        BIGINT        NOT NULL,
    PRIMARY KEY (catalog_name, ns_path)
);
CREATE INDEX namespaces_by_parent ON namespaces (catalog_name, parent_path, ns_path);

-- Tables and views share one identifier space, as Iceberg requires.
CREATE TABLE contents (
    catalog_name      VARCHAR(256)  NOT NULL,
    ns_path           VARCHAR(2048) NOT NULL,
    name              VARCHAR(1024) NOT NULL,
    kind              VARCHAR(8)    NOT NULL,
    metadata_location VARCHAR(4096) NOT NULL,
    previous_metadata_location VARCHAR(4096),
    version           BIGINT        NOT NULL,
    created_at        BIGINT        NOT NULL,
    updated_at        BIGINT        NOT NULL,
    PRIMARY KEY (catalog_name, ns_path, name),
    FOREIGN KEY (catalog_name, ns_path) REFERENCES namespaces (catalog_name, ns_path)
);
CREATE INDEX contents_by_kind ON contents (catalog_name, ns_path, kind, name);

CREATE TABLE principals (
    name              VARCHAR(256)  NOT NULL PRIMARY KEY,
    client_id         VARCHAR(256)  NOT NULL UNIQUE,
    secret_hash       VARCHAR(512)  NOT NULL,
    properties        VARCHAR       NOT NULL,
    created_at        BIGINT        NOT NULL,
    updated_at        BIGINT        NOT NULL
);

-- Token signing keys live in the store so every replica verifies every token.
CREATE TABLE signing_keys (
    kid               VARCHAR(64)   NOT NULL PRIMARY KEY,
    key_material      VARCHAR(256)  NOT NULL,
    created_at        BIGINT        NOT NULL
);
