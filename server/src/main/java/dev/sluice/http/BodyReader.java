package dev.sluice.http;

import static java.util.Objects.requireNonNull;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Request;

/**
 * Reads one request body as it arrives, without holding a thread while it trickles in and without
 * allocating more than has arrived: a declared {@code Content-Length} is a claim, not an
 * allocation. Every buffer is charged to one {@link Budget} shared by all requests, so however many
 * clients send bodies at once, at most the budget is held; a body that would exceed it is answered
 * 503 (busy), one over the per-request limit 413 (after discarding, boundedly, what it still sends,
 * so its client reads the answer).
 */
final class BodyReader implements Runnable {
  static final byte[] NO_BODY = new byte[0];
  private static final int FIRST_BUFFER = 16 * 1024;

  /** Bytes of request bodies held at once, across all requests. */
  static final class Budget {
    private final long limit;
    private final AtomicLong held = new AtomicLong();

    Budget(long limit) {
      this.limit = limit;
    }

    boolean tryReserve(long bytes) {
      while (true) {
        long now = held.get();
        if (now + bytes > limit) {
          return false;
        }
        if (held.compareAndSet(now, now + bytes)) {
          return true;
        }
      }
    }

    void release(long bytes) {
      held.addAndGet(-bytes);
    }

    long held() {
      return held.get();
    }
  }

  /** What became of a body; exactly one method is called, once. */
  interface Outcome {
    /** The whole body; {@code reserved} bytes of the budget are held until released. */
    void body(byte[] body, long reserved);

    void tooLarge(String message);

    /** The budget is spent: the server is receiving too many bodies at once. */
    void busy();

    void failed(Throwable failure);
  }

  private final Request request;
  private final int maxBytes;
  private final Budget budget;
  private final Outcome outcome;
  private byte[] buffer = NO_BODY;
  private int size;
  private long reserved;
  private String tooLarge;
  private long discardLeft;

  private BodyReader(Request request, int maxBytes, Budget budget, Outcome outcome) {
    this.request = requireNonNull(request, "request");
    this.maxBytes = maxBytes;
    this.budget = requireNonNull(budget, "budget");
    this.outcome = requireNonNull(outcome, "outcome");
  }

  /** Reads {@code request}'s body (at most {@code maxBytes}) and tells {@code outcome}. */
  static void read(Request request, int maxBytes, Budget budget, Outcome outcome) {
    long declared = request.getLength();
    if (declared == 0) {
      outcome.body(NO_BODY, 0);
      return;
    }
    BodyReader reader = new BodyReader(request, maxBytes, budget, outcome);
    if (declared > maxBytes) {
      reader.discard("Request body of " + declared + " bytes exceeds the limit of " + maxBytes);
    }
    reader.run();
  }

  /** Reads what is there; asks to be called again when more arrives. */
  @Override
  public void run() {
    while (true) {
      Content.Chunk chunk = request.read();
      if (chunk == null) {
        request.demand(this);
        return;
      }
      if (Content.Chunk.isFailure(chunk)) {
        Throwable failure = chunk.getFailure();
        chunk.release();
        releaseBuffer();
        outcome.failed(failure);
        return;
      }
      boolean last = chunk.isLast();
      boolean busy = false;
      try {
        ByteBuffer bytes = chunk.getByteBuffer();
        int n = bytes.remaining();
        if (tooLarge != null) {
          discardLeft -= n;
        } else if ((long) size + n > maxBytes) {
          discard("Request body exceeds the limit of " + maxBytes + " bytes");
          discardLeft -= n;
        } else if (n > 0) {
          busy = !ensureCapacity(size + n);
          if (!busy) {
            bytes.get(buffer, size, n);
            size += n;
          }
        }
      } finally {
        chunk.release();
      }
      if (busy) {
        releaseBuffer();
        outcome.busy();
        return;
      }
      if (tooLarge != null && (last || discardLeft <= 0)) {
        outcome.tooLarge(tooLarge);
        return;
      }
      if (last) {
        byte[] body =
            size == 0 ? NO_BODY : size == buffer.length ? buffer : Arrays.copyOf(buffer, size);
        outcome.body(body, reserved);
        return;
      }
    }
  }

  /** Stops keeping the body: the rest is read and dropped, up to a bound, then 413. */
  private void discard(String message) {
    releaseBuffer();
    tooLarge = message;
    discardLeft = 8L * maxBytes;
  }

  /**
   * Reads and drops what is left of {@code request}'s body, up to {@code 8 * maxBytes}, then runs
   * {@code done}: after an early answer (503), so that its client, still sending, reads the answer
   * rather than a reset. Holds no buffer and no thread.
   */
  static void drain(Request request, int maxBytes, Runnable done) {
    Outcome finished =
        new Outcome() {
          @Override
          public void body(byte[] body, long reserved) {
            done.run();
          }

          @Override
          public void tooLarge(String message) {
            done.run();
          }

          @Override
          public void busy() {
            done.run();
          }

          @Override
          public void failed(Throwable failure) {
            done.run();
          }
        };
    BodyReader reader = new BodyReader(request, maxBytes, new Budget(0), finished);
    reader.discard("drained");
    reader.run();
  }

  /** Room for {@code needed} bytes, charged to the budget; false when the budget is spent. */
  private boolean ensureCapacity(int needed) {
    if (needed <= buffer.length) {
      return true;
    }
    long declared = request.getLength();
    int capacity = Math.max(buffer.length, Math.min(FIRST_BUFFER, maxBytes));
    while (capacity < needed) {
      capacity = (int) Math.min((long) capacity * 2, maxBytes);
    }
    if (declared > 0 && declared <= maxBytes && capacity > declared && needed <= declared) {
      capacity = (int) declared;
    }
    long more = capacity - buffer.length;
    if (!budget.tryReserve(more)) {
      return false;
    }
    reserved += more;
    buffer = Arrays.copyOf(buffer, capacity);
    return true;
  }

  private void releaseBuffer() {
    budget.release(reserved);
    reserved = 0;
    buffer = NO_BODY;
    size = 0;
  }
}
