package dev.sluice.testing.gcp;

/** The Cloud Storage JSON API operations the fake serves, for its request counters. */
public enum GcsOperation {
  /** GET /storage/v1/b/B/o/O (object metadata). */
  GET_METADATA,
  /** GET .../b/B/o/O?alt=media, on /storage/v1 or /download/storage/v1. */
  DOWNLOAD,
  /** GET /storage/v1/b/B/o (list). */
  LIST,
  /** DELETE /storage/v1/b/B/o/O (also inside a batch). */
  DELETE,
  /** POST /upload/storage/v1/b/B/o?uploadType=resumable (session start). */
  RESUMABLE_START,
  /** PUT on a resumable session URI (a chunk, the final chunk or a status query). */
  RESUMABLE_PUT,
  /** POST /upload/storage/v1/b/B/o?uploadType=multipart. */
  MULTIPART_UPLOAD,
  /** POST /upload/storage/v1/b/B/o?uploadType=media. */
  MEDIA_UPLOAD,
  /** POST /batch/storage/v1 (the envelope; its sub-requests count under their own operation). */
  BATCH,
  /** Anything the fake does not implement (answered 501). */
  UNSUPPORTED
}
