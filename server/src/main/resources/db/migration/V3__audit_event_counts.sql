-- Under load, identical allowed decisions that the audit writer stores in one batch become one
-- row: how many there were and the time of the last one (the first is event_time). Denials,
-- and everything written while the writer keeps up, stay one row per decision.
ALTER TABLE audit_events ADD COLUMN decision_count INT DEFAULT 1 NOT NULL;
ALTER TABLE audit_events ADD COLUMN last_event_time BIGINT;
