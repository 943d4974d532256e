/**
 * {@link dev.sluice.testing.gcp.GoogleCloudFake}: a loopback fake of the Google endpoints GCS
 * credential vending uses, following Google's documented behaviour, proven against google-auth
 * 1.57.0, google-cloud-storage 2.63.0 (HTTP/JSON) and Iceberg 1.10's GCSFileIO.
 *
 * <p>What it checks: service-account JWT grants (RS256 signature with the key named by kid, aud
 * {@code https://oauth2.googleapis.com/token}, at most an hour, a storage-capable scope); STS token
 * exchanges (form fields, a live non-downscoped subject, 1 to 10 bucket rules of six known storage
 * roles, the condition subset of {@link dev.sluice.testing.gcp.Condition}); IAM Credentials
 * impersonation (roles/iam.serviceAccountTokenCreator, 1 to 3600 s); and every Cloud Storage
 * request against its token: 401 when absent, unknown or expired, 403 unless the permission is in
 * the token's scopes, its account's IAM and its access boundary.
 *
 * <p>What it does not do: bucket operations, object versioning, PATCH/compose/rewrite/copy
 * (answered 501 so a gap is visible), JSON-encoded STS requests, availability conditions outside
 * the subset (refused at the STS, never guessed). One fake at a time receives google-auth's
 * redirected calls (the last one started).
 */
package dev.sluice.testing.gcp;
