package dev.sluice.bench.load;

import dev.sluice.bench.http.HttpResult;
import java.util.Arrays;

/**
 * One client's requests for the event-loop runner ({@code --client loop}), for a workload whose
 * every operation is exactly one HTTP request: the next request, already encoded (head and body, by
 * a {@link dev.sluice.bench.http.RequestEncoder}), so that the loop does nothing per request but
 * write it; and the verdict on its response. Called by the loop's one thread only.
 */
public interface RequestSource {
  /** The next request, whole; the loop writes these bytes and does not change them. */
  byte[] next();

  /**
   * Judges the response to the request {@link #next()} returned last: null when the operation
   * succeeded, else a one-line message for the report's error samples. {@code body} is valid up to
   * {@code length}, and only during the call.
   */
  String check(int status, byte[] body, int length);

  /** The usual verdict: a 2xx succeeded; anything else fails as the blocking scenarios say it. */
  static String unless2xx(String what, int status, byte[] body, int length) {
    if (status >= 200 && status < 300) {
      return null;
    }
    return new OperationFailed(what, new HttpResult(status, Arrays.copyOf(body, length)))
        .getMessage();
  }

  /**
   * Requests that need nothing from the previous response: {@code pick} says which one is next;
   * {@code labels[i]} names request i in error messages ("load /v1/…").
   */
  static RequestSource of(String[] labels, byte[][] requests, IntPicker pick) {
    if (labels.length != requests.length || requests.length == 0) {
      throw new IllegalArgumentException(
          labels.length + " labels for " + requests.length + " requests");
    }
    return new RequestSource() {
      private int last;

      @Override
      public byte[] next() {
        last = pick.next(requests.length);
        return requests[last];
      }

      @Override
      public String check(int status, byte[] body, int length) {
        return unless2xx(labels[last], status, body, length);
      }
    };
  }

  /** Picks an index below {@code bound}: the same one, round robin, or at random. */
  @FunctionalInterface
  interface IntPicker {
    int next(int bound);
  }
}
