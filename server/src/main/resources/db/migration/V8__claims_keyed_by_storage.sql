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

-- Likewise an Azure container is one place whether written abfss://c@a.dfs.<suffix>/ or
-- wasbs://c@a.blob.<suffix>/, in any case of its host: keys take the DFS spelling in lower case
-- (StorageLocation.storageKey). Keys end in '/', so the authority is what precedes the first '/'
-- after the 8-character scheme prefix.
UPDATE location_claims SET location_key = 'abfss://'
    || REPLACE(LOWER(SUBSTRING(location_key FROM 9 FOR POSITION('/' IN SUBSTRING(location_key FROM 9)) - 1)), '.blob.', '.dfs.')
    || SUBSTRING(location_key FROM 8 + POSITION('/' IN SUBSTRING(location_key FROM 9)))
    WHERE location_key LIKE 'wasbs://%' OR location_key LIKE 'abfss://%';
UPDATE location_claims SET prefix_key = 'abfss://'
    || REPLACE(LOWER(SUBSTRING(prefix_key FROM 9 FOR POSITION('/' IN SUBSTRING(prefix_key FROM 9)) - 1)), '.blob.', '.dfs.')
    || SUBSTRING(prefix_key FROM 8 + POSITION('/' IN SUBSTRING(prefix_key FROM 9)))
    WHERE prefix_key LIKE 'wasbs://%' OR prefix_key LIKE 'abfss://%';
UPDATE namespace_claims SET location_key = 'abfss://'
    || REPLACE(LOWER(SUBSTRING(location_key FROM 9 FOR POSITION('/' IN SUBSTRING(location_key FROM 9)) - 1)), '.blob.', '.dfs.')
    || SUBSTRING(location_key FROM 8 + POSITION('/' IN SUBSTRING(location_key FROM 9)))
    WHERE location_key LIKE 'wasbs://%' OR location_key LIKE 'abfss://%';
UPDATE namespace_claims SET prefix_key = 'abfss://'
    || REPLACE(LOWER(SUBSTRING(prefix_key FROM 9 FOR POSITION('/' IN SUBSTRING(prefix_key FROM 9)) - 1)), '.blob.', '.dfs.')
    || SUBSTRING(prefix_key FROM 8 + POSITION('/' IN SUBSTRING(prefix_key FROM 9)))
    WHERE prefix_key LIKE 'wasbs://%' OR prefix_key LIKE 'abfss://%';
