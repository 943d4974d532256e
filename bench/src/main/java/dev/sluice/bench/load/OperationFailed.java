package dev.sluice.bench.load;

import dev.sluice.bench.http.HttpResult;
import java.io.IOException;

/** An operation that got an answer it should not have (a 4xx/5xx other than a retried 409). */
public final class OperationFailed extends IOException {
  public OperationFailed(String what, HttpResult result) {
    super(what + ": HTTP " + result.status() + " " + result.excerpt());
  }

  public OperationFailed(String message) {
    super(message);
  }
}
