-- Every principal gets an id that is never reused: a principal deleted and created again under
-- its name is a new identity. Tokens, Idempotency-Key records and audit events name it, so the
-- old one's tokens stay dead and its stored answers are not the new one's. New principals get a
-- random id ("p-" and a UUID); those existing now get "legacy-" and their name, which no new
-- principal can get.
ALTER TABLE principals ADD COLUMN principal_id VARCHAR(300) DEFAULT '' NOT NULL;
UPDATE principals SET principal_id = 'legacy-' || name;
CREATE UNIQUE INDEX principals_by_id ON principals (principal_id);

-- Who used a key: "principal:<id>" for Sluice's principals, "external:<name>" for an identity an
-- external OIDC issuer vouches for, so the two never meet. Keys stored before name their
-- principal as it was then.
ALTER TABLE idempotency_keys ADD COLUMN principal_identity VARCHAR(600) DEFAULT '' NOT NULL;
UPDATE idempotency_keys SET principal_identity = 'principal:legacy-' || principal_name;

-- The same, on audit events from now on (null on older ones).
ALTER TABLE audit_events ADD COLUMN principal_identity VARCHAR(600);
