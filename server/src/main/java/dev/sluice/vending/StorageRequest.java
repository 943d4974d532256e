package dev.sluice.vending;

import static java.util.Objects.requireNonNull;

import java.net.URI;
import java.util.List;
import java.util.Map;

/**
 * A storage request an engine asks the catalog to sign (Iceberg's remote signing): the method, the
 * full request URI, the signing region, the headers the engine will send, and the body where the
 * engine must show it (S3's multi-object delete). Taken as the engine's claim and nothing more: the
 * backend's {@link RequestSigner} parses what it would touch before anything is signed.
 */
public record StorageRequest(
    String method, URI uri, String region, Map<String, List<String>> headers, String body) {
  public StorageRequest {
    requireNonNull(method, "method");
    requireNonNull(uri, "uri");
    requireNonNull(region, "region");
    headers = Map.copyOf(headers);
  }
}
