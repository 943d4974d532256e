-- Pointer versions come from one sequence, so a version names one state of one pointer across
-- creates, commits, renames and drops (a per-row counter restarts when a name is dropped and
-- created again). The pointer cache relies on that: a cached entry whose version equals a change
-- notification's is that very change. Rows written before this migration all get version 0,
-- which the sequence never hands out.
CREATE SEQUENCE content_version START WITH 1;
UPDATE contents SET version = 0;
