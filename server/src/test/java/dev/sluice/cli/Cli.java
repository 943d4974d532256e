package dev.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.Main;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import picocli.CommandLine;

/**
 * Runs {@code sluice ...} in-process, with connection options given explicitly (never from the
 * environment).
 */
final class Cli {
  static final String CLIENT_ID = "admin";
  static final String CLIENT_SECRET = "s3cr3t-admin";

  record Result(int exit, String out, String err) {
    JsonNode json() {
      return FakeServer.json(out);
    }
  }

  private Cli() {}

  /** Runs without connection options. */
  static Result raw(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int exit =
        new CommandLine(new Main())
            .setOut(new PrintWriter(out))
            .setErr(new PrintWriter(err))
            .execute(args);
    return new Result(exit, out.toString(), err.toString());
  }

  /**
   * Runs against {@code server} as the admin client; checks the CLI's own secret never shows up.
   */
  static Result run(FakeServer server, String... args) {
    List<String> all = new ArrayList<>(Arrays.asList(args));
    all.addAll(
        List.of(
            "--base-url",
            server.baseUrl(),
            "--client-id",
            CLIENT_ID,
            "--client-secret",
            CLIENT_SECRET));
    Result result = raw(all.toArray(String[]::new));
    assertThat(result.out()).doesNotContain(CLIENT_SECRET);
    assertThat(result.err()).doesNotContain(CLIENT_SECRET);
    return result;
  }

  /**
   * Runs against a real server as its root principal; checks the secret never shows up. An argument
   * {@code --output json} may be among {@code args}.
   */
  static Result live(dev.sluice.testing.TestServer server, String... args) {
    List<String> all = new ArrayList<>(Arrays.asList(args));
    all.addAll(
        List.of(
            "--base-url",
            server.baseUrl(),
            "--client-id",
            dev.sluice.testing.TestServer.CLIENT_ID,
            "--client-secret",
            dev.sluice.testing.TestServer.SECRET));
    Result result = raw(all.toArray(String[]::new));
    assertThat(result.out() + result.err()).doesNotContain(dev.sluice.testing.TestServer.SECRET);
    return result;
  }

  /** {@link #live} that must succeed (exit 0). */
  static Result ok(dev.sluice.testing.TestServer server, String... args) {
    Result result = live(server, args);
    assertThat(result.exit())
        .as(String.join(" ", args) + "\n" + result.out() + result.err())
        .isZero();
    return result;
  }

  /** Like {@link #run} with {@code --output json}. */
  static Result json(FakeServer server, String... args) {
    List<String> all = new ArrayList<>(Arrays.asList(args));
    all.addAll(List.of("--output", "json"));
    return run(server, all.toArray(String[]::new));
  }
}
