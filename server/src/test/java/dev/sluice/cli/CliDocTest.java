package dev.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.Main;
import dev.sluice.testing.TestServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * Every snippet of docs/CLI.md a user follows: the blocks after {@code <!-- cli-doc: live -->} run
 * line by line against a live server and must exit 0; {@code parse} blocks (they need a real store)
 * must parse; {@code raw} blocks run without a connection; the {@code profile} block is loaded.
 */
class CliDocTest {
  private static final Path DOC = Path.of("..", "docs", "CLI.md");
  private static final Pattern BLOCK =
      Pattern.compile("<!-- cli-doc: (\\w+) -->\\n```\\w*\\n(.*?)```", Pattern.DOTALL);
  private static final Pattern COMMAND = Pattern.compile("\\./sluice ([^)#\\n]*)");

  private static TestServer server;
  @TempDir static Path dir;

  @BeforeAll
  static void start() throws Exception {
    server = TestServer.startH2();
  }

  @AfterAll
  static void stop() throws Exception {
    server.close();
  }

  private static List<String> blocks(String kind) throws Exception {
    String doc = Files.readString(DOC);
    List<String> out = new ArrayList<>();
    Matcher m = BLOCK.matcher(doc);
    while (m.find()) {
      if (m.group(1).equals(kind)) {
        out.add(m.group(2));
      }
    }
    assertThat(out).as("a cli-doc: " + kind + " block in " + DOC).isNotEmpty();
    return out;
  }

  private static List<String[]> commands(String block, Map<String, String> vars) {
    List<String[]> out = new ArrayList<>();
    Matcher m = COMMAND.matcher(block.replace("\\\n", " "));
    while (m.find()) {
      String line = m.group(1).strip();
      for (Map.Entry<String, String> var : vars.entrySet()) {
        line = line.replace("$" + var.getKey(), var.getValue());
      }
      out.add(line.split("\\s+"));
    }
    return out;
  }

  @Test
  void theWalkthroughRunsAgainstALiveServer() throws Exception {
    Path warehouse = Files.createDirectories(dir.resolve("demo"));
    int ran = 0;
    for (String block : blocks("live")) {
      for (String[] args : commands(block, Map.of("WAREHOUSE", warehouse.toUri().toString()))) {
        Cli.ok(server, args);
        ran++;
      }
    }
    assertThat(ran).isGreaterThan(10);
  }

  @Test
  void theStoreSnippetsParse() throws Exception {
    for (String block : blocks("parse")) {
      List<String[]> commands = commands(block, Map.of());
      assertThat(commands).isNotEmpty();
      for (String[] args : commands) {
        // Throws picocli's ParameterException on an unknown option or a bad value.
        new CommandLine(new Main()).parseArgs(args);
      }
    }
  }

  @Test
  void theRawSnippetsRun() throws Exception {
    for (String block : blocks("raw")) {
      for (String[] args : commands(block, Map.of())) {
        Cli.Result result = Cli.raw(args);
        assertThat(result.exit()).as(String.join(" ", args) + ": " + result.err()).isZero();
      }
    }
  }

  @Test
  void theProfileLoads() throws Exception {
    Path file = dir.resolve("cli.yaml");
    Files.writeString(file, blocks("profile").get(0));
    Profiles.Profile prod = Profiles.load(file, "prod", Map.of("SLUICE_PROD_SECRET", "s")::get);
    assertThat(prod.url()).isEqualTo("https://sluice.example.com");
    assertThat(prod.clientId()).isEqualTo("ops-admin");
    assertThat(prod.caFile()).isEqualTo(Path.of("/etc/sluice/ca.pem"));
    assertThat(prod.secret().get()).isEqualTo("s");
  }
}
