-- What a decision changed, when the decision alone does not say it: e.g. a catalog's storage
-- identity before and after (secrets redacted). Most events have none.
ALTER TABLE audit_events ADD COLUMN detail VARCHAR(16384);
