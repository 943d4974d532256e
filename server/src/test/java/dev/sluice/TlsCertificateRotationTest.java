package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testing.TestPki;
import dev.sluice.testing.TestServer;
import dev.sluice.testing.TlsConnection;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The certificate is replaced on disk while clients keep calling: no request fails, connections
 * opened before keep working (and keep their certificate), and new connections get the new one.
 */
class TlsCertificateRotationTest {
  private static final int KEPT_ALIVE_THREADS = 4;
  private static final int NEW_CONNECTION_THREADS = 4;

  @TempDir Path dir;

  /**
   * PEM files, replaced as a certificate manager does, one file at a time: for a moment the
   * certificate is new and the key old, a pair the server must not take.
   */
  @Test
  void pemFilesReplacedUnderLoadWithoutAFailedRequest() throws Exception {
    TestPki pki = TestPki.create(dir.resolve("pki"), "Rotation CA");
    TestPki.Issued first = pki.server("localhost");
    TestPki.Issued second = pki.server("localhost");
    Path cert = dir.resolve("tls.crt");
    Path key = dir.resolve("tls.key");
    Files.copy(first.certificatePem(), cert);
    Files.copy(first.privateKeyPem(), key);
    SSLContext trust = pki.clientContext();
    try (TestServer server =
        TestServer.start(
            null,
            "server:\n  tls:\n    certificate: \""
                + cert
                + "\"\n    privateKey: \""
                + key
                + "\"\n    reloadIntervalSeconds: 1\n",
            trust)) {
      String catalog = server.createCatalog("rotation");
      String token = server.rootToken();
      String path = "/api/catalog/v1/config?warehouse=" + catalog;
      int port = server.server().port();

      AtomicBoolean running = new AtomicBoolean(true);
      AtomicLong keptAliveRequests = new AtomicLong();
      AtomicLong newConnectionRequests = new AtomicLong();
      Queue<String> failures = new ConcurrentLinkedQueue<>();
      Queue<BigInteger> keptAliveSerialsAtEnd = new ConcurrentLinkedQueue<>();
      AtomicReference<BigInteger> latestNewSerial = new AtomicReference<>();
      CountDownLatch warm = new CountDownLatch(KEPT_ALIVE_THREADS + NEW_CONNECTION_THREADS);
      List<Thread> threads = new ArrayList<>();
      for (int i = 0; i < KEPT_ALIVE_THREADS; i++) {
        threads.add(
            new Thread(
                () -> {
                  // One connection for the whole run: it must survive the rotation.
                  try (TlsConnection connection = new TlsConnection(trust, "127.0.0.1", port)) {
                    long n = 0;
                    while (running.get()) {
                      int status = connection.get(path, token);
                      if (status != 200) {
                        failures.add("kept-alive: HTTP " + status);
                      }
                      keptAliveRequests.incrementAndGet();
                      if (++n == 5) {
                        warm.countDown();
                      }
                    }
                    keptAliveSerialsAtEnd.add(connection.serverSerial());
                  } catch (Exception e) {
                    failures.add("kept-alive: " + e);
                    warm.countDown();
                  }
                }));
      }
      for (int i = 0; i < NEW_CONNECTION_THREADS; i++) {
        threads.add(
            new Thread(
                () -> {
                  long n = 0;
                  while (running.get()) {
                    try (TlsConnection connection = new TlsConnection(trust, "127.0.0.1", port)) {
                      int status = connection.get(path, token);
                      if (status != 200) {
                        failures.add("new connection: HTTP " + status);
                      }
                      latestNewSerial.set(connection.serverSerial());
                      newConnectionRequests.incrementAndGet();
                    } catch (Exception e) {
                      failures.add("new connection: " + e);
                    }
                    if (++n == 5) {
                      warm.countDown();
                    }
                  }
                }));
      }
      long started = System.nanoTime();
      threads.forEach(Thread::start);
      warm.await();
      assertThat(latestNewSerial.get()).isEqualTo(first.serial());

      // Half-way: new certificate, old key, for longer than a scan interval.
      TestPki.replaceAtomically(second.certificatePem(), cert);
      Thread.sleep(2_500);
      assertThat(latestNewSerial.get())
          .as("a certificate without its key must not be served")
          .isEqualTo(first.serial());
      TestPki.replaceAtomically(second.privateKeyPem(), key);
      long replaced = System.nanoTime();
      long deadline = replaced + 15_000_000_000L;
      while (!second.serial().equals(latestNewSerial.get()) && System.nanoTime() < deadline) {
        Thread.sleep(50);
      }
      long switchMillis = (System.nanoTime() - replaced) / 1_000_000;
      Thread.sleep(2_000); // more load on both kinds of connection after the switch
      running.set(false);
      for (Thread t : threads) {
        t.join(30_000);
      }
      long totalMillis = (System.nanoTime() - started) / 1_000_000;
      System.out.printf(
          "rotation under load: %d requests on kept-alive connections, %d on new connections,"
              + " %d failed, new certificate on new connections %d ms after the key was"
              + " replaced, %d ms in all%n",
          keptAliveRequests.get(),
          newConnectionRequests.get(),
          failures.size(),
          switchMillis,
          totalMillis);

      assertThat(failures).as("failed requests").isEmpty();
      assertThat(latestNewSerial.get())
          .as("new connections' certificate")
          .isEqualTo(second.serial());
      // The connections opened before the rotation were never dropped and kept their certificate.
      assertThat(keptAliveSerialsAtEnd)
          .hasSize(KEPT_ALIVE_THREADS)
          .allMatch(first.serial()::equals);
      assertThat(keptAliveRequests.get()).isGreaterThan(100);
      assertThat(newConnectionRequests.get()).isGreaterThan(20);
      try (TlsConnection fresh = new TlsConnection(pki.clientContext(), "127.0.0.1", port)) {
        assertThat(fresh.serverSerial()).isEqualTo(second.serial());
        assertThat(fresh.get(path, token)).isEqualTo(200);
      }
    }
  }

  /** A PKCS#12 keystore replaced in place is picked up too. */
  @Test
  void pkcs12KeystoreReplacedIsServedToNewConnections() throws Exception {
    TestPki pki = TestPki.create(dir.resolve("pki12"), "Keystore CA");
    TestPki.Issued first = pki.server("localhost");
    TestPki.Issued second = pki.server("localhost");
    Path store = dir.resolve("tls.p12");
    Files.copy(first.pkcs12(), store);
    try (TestServer server =
        TestServer.start(
            null,
            "server:\n  tls:\n    keyStore: \""
                + store
                + "\"\n    keyStorePassword: \""
                + TestPki.PASSWORD
                + "\"\n    reloadIntervalSeconds: 1\n",
            pki.clientContext())) {
      int port = server.server().port();
      try (TlsConnection before = new TlsConnection(pki.clientContext(), "127.0.0.1", port)) {
        assertThat(before.serverSerial()).isEqualTo(first.serial());
        TestPki.replaceAtomically(second.pkcs12(), store);
        BigInteger seen = first.serial();
        long deadline = System.nanoTime() + 15_000_000_000L;
        while (!seen.equals(second.serial()) && System.nanoTime() < deadline) {
          Thread.sleep(100);
          try (TlsConnection probe = new TlsConnection(pki.clientContext(), "127.0.0.1", port)) {
            seen = probe.serverSerial();
          }
        }
        assertThat(seen).isEqualTo(second.serial());
        assertThat(before.get("/healthz", null)).isEqualTo(200);
      }
    }
  }
}
