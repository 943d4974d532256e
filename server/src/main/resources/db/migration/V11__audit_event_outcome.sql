-- What the audit trail records of the request each decision was made in: where it came from (the
-- client's address, through server.trustedProxies, and its User-Agent) and how it ended (the HTTP
-- status and, for an error, the Iceberg error type). Null on events from before, and on those no
-- HTTP request carried.
ALTER TABLE audit_events ADD COLUMN client_address VARCHAR(64);
ALTER TABLE audit_events ADD COLUMN user_agent VARCHAR(512);
ALTER TABLE audit_events ADD COLUMN http_status INTEGER;
ALTER TABLE audit_events ADD COLUMN error_type VARCHAR(128);
-- The request's OpenTelemetry trace id (32 hex digits), when tracing is on.
ALTER TABLE audit_events ADD COLUMN trace_id VARCHAR(32);
