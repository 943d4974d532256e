package dev.sluice.http;

import dev.sluice.operations.PartDigest;
import java.util.HexFormat;

/**
 * A SHA-256 of what makes a request the request it is (operation, method, path parameters, query,
 * body): a retry under an {@code Idempotency-Key} must carry the same, or it is another request.
 */
final class RequestFingerprint {
  private RequestFingerprint() {}

  static String of(Exchange x, String operation) {
    return HexFormat.of()
        .formatHex(
            new PartDigest()
                .add(operation)
                .add(x.method())
                .add(x.rawPathParams())
                .add(x.queryParams())
                .last(x.body())
                .finish());
  }
}
