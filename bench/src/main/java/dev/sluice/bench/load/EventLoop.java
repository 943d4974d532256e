package dev.sluice.bench.load;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.HdrHistogram.Histogram;

/**
 * The one thread of {@link EventLoopRunner}: a selector over every client's connection, and the
 * tally of the run (a histogram, counts, error samples), touched by this thread only and read by
 * the runner after it ended.
 */
final class EventLoop implements Runnable {
  private static final long TIMEOUT_NANOS = 60_000_000_000L; // as the plain-socket client's
  private static final long SCAN_NANOS = 100_000_000L;

  private final Selector selector;
  private final List<LoopConnection> connections = new ArrayList<>();
  private final ArrayDeque<LoopConnection> restarts = new ArrayDeque<>();
  private final ByteBuffer readBuffer = ByteBuffer.allocate(64 * 1024);
  private final long start;
  private final long measureStart;
  private final long measureEnd;
  private final Histogram histogram = new Histogram(LoadRunner.MAX_TRACKED_MICROS, 3);
  private final Set<String> errorSamples = new LinkedHashSet<>();
  private long operations;
  private long errors;
  private int active;
  private volatile Throwable crash;

  EventLoop(
      List<RequestSource> sources,
      InetSocketAddress address,
      long start,
      long measureStart,
      long measureEnd)
      throws IOException {
    this.selector = Selector.open();
    this.start = start;
    this.measureStart = measureStart;
    this.measureEnd = measureEnd;
    for (RequestSource source : sources) {
      connections.add(new LoopConnection(this, source, address));
    }
  }

  @Override
  public void run() {
    try (selector) {
      LoadRunner.sleepUntil(start);
      active = connections.size();
      long now = System.nanoTime();
      for (LoopConnection c : connections) {
        c.next(now);
      }
      long lastScan = now;
      while (active > 0) {
        while (!restarts.isEmpty()) {
          restarts.poll().next(System.nanoTime());
        }
        if (active == 0) {
          break;
        }
        if ((restarts.isEmpty() ? selector.select(100) : selector.selectNow()) > 0) {
          Iterator<SelectionKey> ready = selector.selectedKeys().iterator();
          while (ready.hasNext()) {
            SelectionKey key = ready.next();
            ready.remove();
            if (key.isValid()) {
              ((LoopConnection) key.attachment()).onReady(key);
            }
          }
        }
        now = System.nanoTime();
        if (now - lastScan >= SCAN_NANOS) {
          lastScan = now;
          for (LoopConnection c : connections) {
            c.timeOutIfStarted(now - TIMEOUT_NANOS);
          }
        }
      }
    } catch (Throwable t) {
      crash = t;
    } finally {
      for (LoopConnection c : connections) {
        c.close();
      }
    }
  }

  Selector selector() {
    return selector;
  }

  /** One buffer for every read of every connection: each parser copies out what it keeps. */
  ByteBuffer readBuffer() {
    return readBuffer;
  }

  /** Whether an operation started at {@code now} may start (it may end after the window). */
  boolean running(long now) {
    return now < measureEnd;
  }

  /** An operation that got its whole response; {@code failure} as {@link RequestSource#check}. */
  void completed(long startedAt, long endedAt, String failure) {
    if (failure != null) {
      error(startedAt, "OperationFailed: " + failure);
    } else if (startedAt >= measureStart) {
      histogram.recordValue(Math.min((endedAt - startedAt) / 1000, LoadRunner.MAX_TRACKED_MICROS));
      operations++;
    }
  }

  /** An operation that failed on its connection; the connection starts again later. */
  void failed(long startedAt, IOException e, LoopConnection connection) {
    error(startedAt, e.getClass().getSimpleName() + ": " + e.getMessage());
    restarts.add(connection);
  }

  private void error(long startedAt, String sample) {
    if (startedAt >= measureStart) {
      errors++;
    }
    if (errorSamples.size() < 5) {
      errorSamples.add(sample);
    }
  }

  /** A connection that is done: the window ended and its last operation with it. */
  void finished() {
    active--;
  }

  static SocketTimeoutException timeout() {
    return new SocketTimeoutException("No complete response in " + TIMEOUT_NANOS / 1e9 + " s");
  }

  Throwable crash() {
    return crash;
  }

  long operations() {
    return operations;
  }

  long errors() {
    return errors;
  }

  List<String> errorSamples() {
    return List.copyOf(errorSamples);
  }

  Histogram histogram() {
    return histogram;
  }
}
