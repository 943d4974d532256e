-- Idempotency-Key (Iceberg REST): the outcome of the first request that carried a key, so that
-- a retry with the same key is answered with it instead of being applied again, on any replica.
-- A mutation writes its row (status NULL: applied, answer not yet recorded) in its own database
-- transaction; the answer is recorded right after. Response bodies never hold a vended credential.
CREATE TABLE idempotency_keys (
    idem_key          VARCHAR(36)   NOT NULL PRIMARY KEY,
    principal_name    VARCHAR(256)  NOT NULL,
    catalog_name      VARCHAR(256)  NOT NULL,
    operation         VARCHAR(128)  NOT NULL,
    request_hash      VARCHAR(64)   NOT NULL,
    attempt           VARCHAR(36)   NOT NULL,
    status            INTEGER,
    response_body     VARCHAR,
    created_at        BIGINT        NOT NULL,
    expires_at        BIGINT        NOT NULL
);
CREATE INDEX idempotency_keys_by_expiry ON idempotency_keys (expires_at);
