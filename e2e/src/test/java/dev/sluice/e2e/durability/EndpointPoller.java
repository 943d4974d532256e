package dev.sluice.e2e.durability;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

/**
 * Polls one URL (a health or readiness endpoint) every 200 ms on its own thread, recording when
 * each answer came, its status (-1: no answer within 5 s, or refused) and how long it took.
 */
final class EndpointPoller implements Runnable, AutoCloseable {
  /** One poll: when it ended (nanoTime), the status, the milliseconds it took. */
  record Answer(long atNanos, int status, long millis) {}

  private final URI uri;
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
  private final ConcurrentLinkedQueue<Answer> answers = new ConcurrentLinkedQueue<>();
  private final AtomicBoolean stop = new AtomicBoolean();
  private final Thread thread;

  EndpointPoller(String url) {
    this.uri = URI.create(url);
    this.thread = new Thread(this, "poll " + url);
    thread.setDaemon(true);
    thread.start();
  }

  @Override
  public void run() {
    while (!stop.get()) {
      long begin = System.nanoTime();
      int status;
      try {
        status =
            http.send(
                    HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(5)).build(),
                    HttpResponse.BodyHandlers.discarding())
                .statusCode();
      } catch (IOException e) {
        status = -1;
      } catch (InterruptedException e) {
        return;
      }
      long end = System.nanoTime();
      answers.add(new Answer(end, status, (end - begin) / 1_000_000));
      LockSupport.parkNanos(Duration.ofMillis(200).toNanos());
    }
  }

  /** Stops polling and waits for the last poll. */
  void stop() throws InterruptedException {
    stop.set(true);
    thread.join(10_000);
  }

  @Override
  public void close() throws InterruptedException {
    stop();
  }

  boolean sawNotReadyBetween(long fromNanos, long toNanos) {
    return answers.stream()
        .anyMatch(a -> a.atNanos() >= fromNanos && a.atNanos() <= toNanos && a.status() != 200);
  }

  /** The first 200 at or after {@code nanos}, in seconds after it; -1 if none. */
  double firstOkAfter(long nanos) {
    return answers.stream()
        .filter(a -> a.status() == 200 && a.atNanos() >= nanos)
        .mapToDouble(a -> (a.atNanos() - nanos) / 1e9)
        .min()
        .orElse(-1);
  }

  /**
   * The statuses in the order they changed, counting every failure to answer (refused, no answer)
   * as "not 200": e.g. {@code [200, -1]} for ready, then not ready or gone.
   */
  java.util.List<Integer> transitions() {
    java.util.List<Integer> out = new java.util.ArrayList<>();
    for (Answer a : answers) {
      int s = a.status() == 200 ? 200 : -1;
      if (out.isEmpty() || out.get(out.size() - 1) != s) {
        out.add(s);
      }
    }
    return out;
  }

  int lastStatus() {
    Answer last = null;
    for (Answer a : answers) {
      last = a;
    }
    return last == null ? -1 : last.status();
  }

  long slowestMillis() {
    return answers.stream().mapToLong(Answer::millis).max().orElse(-1);
  }

  /** Answers by status, e.g. {@code {200=40, 503=5}}. */
  String summary() {
    return byStatus().toString();
  }

  Map<Integer, Long> byStatus() {
    Map<Integer, Long> by = new TreeMap<>();
    answers.forEach(a -> by.merge(a.status(), 1L, Long::sum));
    return by;
  }
}
