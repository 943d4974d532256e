-- PRINCIPAL_ACT_AS: principals holding actor_role may obtain tokens for users through the token
-- exchange with an actor (RFC 8693), activating only target_role of those users' roles. Both ends
-- are principal roles and go with them (ON DELETE CASCADE).
CREATE TABLE principal_role_delegations (
    actor_role        VARCHAR(256)  NOT NULL REFERENCES principal_roles (name) ON DELETE CASCADE,
    target_role       VARCHAR(256)  NOT NULL REFERENCES principal_roles (name) ON DELETE CASCADE,
    created_at        BIGINT        NOT NULL,
    PRIMARY KEY (actor_role, target_role)
);

-- The engine principal that acted for the event's principal (a delegated token's actor); null when
-- the principal called itself, and on events from before.
ALTER TABLE audit_events ADD COLUMN actor VARCHAR(256);
