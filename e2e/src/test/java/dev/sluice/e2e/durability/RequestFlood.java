package dev.sluice.e2e.durability;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Many clients at once, each sending GETs in a closed loop (one after the other, round robin over
 * {@code paths}) until stopped, recording every answer: status (-1: none within the timeout),
 * milliseconds, and whether a 503 said when to retry.
 */
final class RequestFlood implements AutoCloseable {
  /** One request: when it was sent and answered (nanoTime), its status and Retry-After. */
  record Answer(long sentNanos, long endNanos, int status, boolean retryAfter) {
    long millis() {
      return (endNanos - sentNanos) / 1_000_000;
    }
  }

  private static final Duration TIMEOUT = Duration.ofSeconds(40);

  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private final ConcurrentLinkedQueue<Answer> answers = new ConcurrentLinkedQueue<>();
  private final AtomicBoolean stop = new AtomicBoolean();
  private final AtomicInteger outstanding = new AtomicInteger();
  private final List<Thread> threads = new ArrayList<>();

  RequestFlood(int clients, String baseUrl, List<String> paths, String token) {
    for (int c = 0; c < clients; c++) {
      int client = c;
      Thread t =
          new Thread(
              () -> {
                for (int n = client; !stop.get(); n++) {
                  send(baseUrl + paths.get(n % paths.size()), token);
                }
              },
              "flood-" + c);
      t.setDaemon(true);
      threads.add(t);
      t.start();
    }
  }

  private void send(String url, String token) {
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(url))
            .timeout(TIMEOUT)
            .header("Authorization", "Bearer " + token)
            .GET()
            .build();
    long sent = System.nanoTime();
    outstanding.incrementAndGet();
    int status;
    boolean retryAfter = false;
    try {
      HttpResponse<Void> response = http.send(request, HttpResponse.BodyHandlers.discarding());
      status = response.statusCode();
      retryAfter = response.headers().firstValue("Retry-After").isPresent();
    } catch (IOException e) {
      status = -1;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return;
    } finally {
      outstanding.decrementAndGet();
    }
    answers.add(new Answer(sent, System.nanoTime(), status, retryAfter));
  }

  /** Requests sent and not answered yet. */
  int outstanding() {
    return outstanding.get();
  }

  /** Stops sending and waits for the requests in flight (at most their timeout). */
  void stop() throws InterruptedException {
    stop.set(true);
    for (Thread t : threads) {
      t.join(TIMEOUT.toMillis() + 5_000);
    }
  }

  @Override
  public void close() throws InterruptedException {
    stop();
  }

  List<Answer> answers() {
    return List.copyOf(answers);
  }

  /** Answers by status, e.g. {@code {200=400, 503=80}}. */
  Map<Integer, Long> byStatus() {
    Map<Integer, Long> by = new TreeMap<>();
    answers.forEach(a -> by.merge(a.status(), 1L, Long::sum));
    return by;
  }

  long slowestMillis() {
    return answers.stream().mapToLong(Answer::millis).max().orElse(-1);
  }
}
