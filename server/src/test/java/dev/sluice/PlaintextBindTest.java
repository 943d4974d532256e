package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.config.ConfigException;
import dev.sluice.config.ServerConfig;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * Plaintext is served on loopback only: a non-loopback bind without {@code server.tls} fails at
 * start with an error naming both fixes; {@code server.allowPlaintext: true} (behind a TLS proxy)
 * lets it start; the default (127.0.0.1) is unchanged.
 */
class PlaintextBindTest {
  @TempDir Path dir;

  @Test
  void serveOnAllInterfacesWithoutTlsExitsWithTheFixes() throws Exception {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    PrintStream saved = System.err;
    // In a thread of its own: a serve that wrongly starts blocks for good, which must fail the
    // test rather than hang it.
    CompletableFuture<Integer> exit = new CompletableFuture<>();
    Thread serve =
        new Thread(
            () ->
                exit.complete(
                    new CommandLine(new Main())
                        .execute(
                            "serve",
                            "--host",
                            "0.0.0.0",
                            "--port",
                            "0",
                            "--data-dir",
                            dir.toString())));
    serve.setDaemon(true);
    try {
      System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
      serve.start();
      assertThat(exit.get(30, TimeUnit.SECONDS)).isEqualTo(2);
    } catch (TimeoutException e) {
      throw new AssertionError("serve started listening on 0.0.0.0 without TLS", e);
    } finally {
      System.setErr(saved);
    }
    String message = err.toString(StandardCharsets.UTF_8);
    assertThat(message)
        .contains("server.host is 0.0.0.0")
        .contains("not a loopback address")
        .contains("configure server.tls")
        .contains("server.allowPlaintext: true");
    assertThat(dir.resolve("warehouse")).doesNotExist(); // refused before anything started
  }

  @Test
  void aConfiguredNonLoopbackHostIsRefusedToo() throws Exception {
    Path file = Files.writeString(dir.resolve("c.yaml"), "server:\n  host: 0.0.0.0\n");
    assertThatThrownBy(
            () ->
                ServerConfig.load(
                    file, ServerConfig.Overrides.NONE, name -> null, StandardBackends.create()))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("server.tls")
        .hasMessageContaining("server.allowPlaintext");
  }

  @Test
  void allowPlaintextStartsOnAllInterfaces() throws Exception {
    Path file =
        Files.writeString(
            dir.resolve("c.yaml"),
            "server:\n  allowPlaintext: true\nbootstrap:\n  quickstartCatalog: false\n");
    ServerConfig config =
        ServerConfig.load(
            file,
            new ServerConfig.Overrides("0.0.0.0", 0, dir.toString()),
            name -> null,
            StandardBackends.create());
    try (SluiceServer server =
        SluiceServer.start(config, null, new PrintStream(new ByteArrayOutputStream()))) {
      HttpResponse<String> health =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(
                          URI.create("http://127.0.0.1:" + server.port() + "/healthz"))
                      .build(),
                  HttpResponse.BodyHandlers.ofString());
      assertThat(health.statusCode()).isEqualTo(200);
    }
  }

  @Test
  void loopbackDefaultsNeedNothing() {
    ServerConfig defaults =
        ServerConfig.load(
            null, ServerConfig.Overrides.NONE, name -> null, StandardBackends.create());
    assertThat(defaults.server().host()).isEqualTo("127.0.0.1");
    assertThat(defaults.server().tls()).isNull();
    assertThat(defaults.server().allowPlaintext()).isFalse();
    for (String host : new String[] {"localhost", "::1", "127.0.0.2"}) {
      assertThat(
              ServerConfig.load(
                      null,
                      new ServerConfig.Overrides(host, 0, dir.toString()),
                      name -> null,
                      StandardBackends.create())
                  .server()
                  .host())
          .isEqualTo(host);
    }
  }
}
