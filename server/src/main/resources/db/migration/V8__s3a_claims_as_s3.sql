-- s3a://b/p and s3://b/p name the same objects, so a location claim keys both as s3://b/p/
-- (StorageLocation folds the scheme). Claims recorded before were keyed as written: rewrite
-- the s3a ones, or a table at s3://b/p would not overlap an older one at s3a://b/p. Lock rows
-- of the new roots (storage_roots) are inserted on first use, as for any new root.
UPDATE location_claims SET location_key = 's3://' || SUBSTRING(location_key FROM 7)
    WHERE location_key LIKE 's3a://%';
UPDATE location_claims SET prefix_key = 's3://' || SUBSTRING(prefix_key FROM 7)
    WHERE prefix_key LIKE 's3a://%';
UPDATE namespace_claims SET location_key = 's3://' || SUBSTRING(location_key FROM 7)
    WHERE location_key LIKE 's3a://%';
UPDATE namespace_claims SET prefix_key = 's3://' || SUBSTRING(prefix_key FROM 7)
    WHERE prefix_key LIKE 's3a://%';
