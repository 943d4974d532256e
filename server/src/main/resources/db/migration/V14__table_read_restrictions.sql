-- Read restrictions as catalog policy: per table and principal role, a row filter (Iceberg
-- ExpressionParser JSON whose references are field ids, so a column rename keeps it), hidden
-- columns (a JSON array of field ids) and masked columns (a JSON object, field id -> the spec's
-- action name). Keyed like the table; the foreign key moves a restriction with its table on a
-- rename (ON UPDATE CASCADE) and drops it with the table (ON DELETE CASCADE), as grants on the
-- table are, so a table created again under the name starts without one; and drops it with its
-- principal role.
CREATE TABLE table_read_restrictions (
    catalog_name      VARCHAR(256)  NOT NULL,
    ns_path           VARCHAR(2048) NOT NULL,
    table_name        VARCHAR(1024) NOT NULL,
    principal_role    VARCHAR(256)  NOT NULL REFERENCES principal_roles (name) ON DELETE CASCADE,
    row_filter        VARCHAR,
    hidden_field_ids  VARCHAR       NOT NULL,
    masked_field_ids  VARCHAR       NOT NULL,
    updated_at        BIGINT        NOT NULL,
    PRIMARY KEY (catalog_name, ns_path, table_name, principal_role),
    FOREIGN KEY (catalog_name, ns_path, table_name) REFERENCES contents (catalog_name, ns_path, name)
        ON DELETE CASCADE ON UPDATE CASCADE
);
