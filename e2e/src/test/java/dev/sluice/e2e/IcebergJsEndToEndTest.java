package dev.sluice.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Runs {@code e2e/js/lifecycle.mjs} (the npm package {@code iceberg-js}, pinned by {@code
 * e2e/js/package-lock.json}) with Node against a Sluice server process.
 *
 * <p>Needs {@code node} on the PATH and {@code npm ci --prefix e2e/js} run beforehand; fails, not
 * skips, when either is missing.
 */
class IcebergJsEndToEndTest {

  private static final long NODE_TIMEOUT_SECONDS = 120;

  private static SluiceServerProcess server;

  @BeforeAll
  static void startServer() {
    server = SluiceServerProcess.start("iceberg-js");
  }

  @AfterAll
  static void stopServer() {
    if (server != null) {
      server.close();
    }
  }

  @Test
  void namespaceAndTableLifecycleThroughIcebergJs() throws Exception {
    Path jsDir = SluiceServerProcess.repoRoot().resolve("e2e/js");
    Path script = jsDir.resolve("lifecycle.mjs");
    assertThat(script).as("the iceberg-js lifecycle script").isRegularFile();
    if (!Files.isRegularFile(jsDir.resolve("node_modules/iceberg-js/package.json"))) {
      fail(
          "%s is missing the npm package iceberg-js: run `npm ci --prefix e2e/js` from the "
              + "repository root before `mvn verify`.",
          jsDir.resolve("node_modules"));
    }

    String token = server.fetchToken();

    ProcessBuilder builder =
        new ProcessBuilder(List.of("node", script.toString()))
            .directory(jsDir.toFile())
            .redirectErrorStream(true);
    builder.environment().put("SLUICE_BASE_URL", server.catalogUri());
    builder.environment().put("SLUICE_TOKEN", token);
    builder.environment().put("SLUICE_WAREHOUSE", SluiceServerProcess.WAREHOUSE);
    builder.environment().put("NO_COLOR", "1");

    Process node;
    try {
      node = builder.start();
    } catch (IOException e) {
      throw new AssertionError("could not run `node` (Node.js 20+ must be on the PATH): " + e, e);
    }
    CompletableFuture<String> output =
        CompletableFuture.supplyAsync(() -> readAll(node.getInputStream()));
    if (!node.waitFor(NODE_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
      node.destroyForcibly();
      fail(
          "node %s did not finish within %d s; output so far:%n%s%nServer log tail:%n%s",
          script,
          NODE_TIMEOUT_SECONDS,
          output.completeOnTimeout("(unavailable)", 5, TimeUnit.SECONDS).get(),
          server.logTail(40));
    }
    String out = output.get(10, TimeUnit.SECONDS);
    System.out.println("--- node " + jsDir.relativize(script) + " ---");
    System.out.print(out);

    assertThat(node.exitValue())
        .as(
            "exit code of node %s; its output:%n%s%nServer log tail:%n%s",
            script, out, server.logTail(40))
        .isZero();
    assertThat(out).contains("lifecycle: all ");
  }

  private static String readAll(InputStream in) {
    try (in) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "(could not read node's output: " + e + ")";
    }
  }
}
