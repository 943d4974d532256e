-- One row that readiness writes: a store that answers reads but cannot write (H2 on a full disk,
-- a PostgreSQL standby after a failover) is not ready to serve a catalog.
CREATE TABLE store_probe (
  id INTEGER PRIMARY KEY,
  probed_at BIGINT NOT NULL
);
INSERT INTO store_probe (id, probed_at) VALUES (1, 0);
