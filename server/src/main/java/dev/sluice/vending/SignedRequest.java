package dev.sluice.vending;

import static java.util.Objects.requireNonNull;

import java.net.URI;
import java.util.List;
import java.util.Map;

/**
 * A signed storage request: the URI to send it to and the headers to send with it (the signature,
 * its date and token, and the engine's own headers that were left unsigned).
 */
public record SignedRequest(URI uri, Map<String, List<String>> headers) {
  public SignedRequest {
    requireNonNull(uri, "uri");
    headers = Map.copyOf(headers);
  }
}
