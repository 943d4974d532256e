package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.ServerConfig;
import java.io.File;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * {@code sluice migrate}: a dry run lists what an upgrade would apply and applies nothing; without
 * it the migrations run once; a server then starts on the migrated store.
 */
class MigrateCommandTest {
  private record Run(int exit, String out, String err) {}

  private static Run migrate(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    String[] all = new String[args.length + 1];
    all[0] = "migrate";
    System.arraycopy(args, 0, all, 1, args.length);
    int exit =
        new CommandLine(new Main())
            .setOut(new PrintWriter(out))
            .setErr(new PrintWriter(err))
            .execute(all);
    return new Run(exit, out.toString(), err.toString());
  }

  /** The migrations this build ships, from its resources. */
  private static int shipped() {
    File dir =
        new File(
            Objects.requireNonNull(MigrateCommandTest.class.getResource("/db/migration"))
                .getPath());
    return Objects.requireNonNull(dir.list((d, name) -> name.matches("V\\d+__.*\\.sql"))).length;
  }

  @Test
  void aDryRunListsThePendingMigrationsAndAppliesNothingThenMigrateAppliesThemOnce()
      throws Exception {
    Path dataDir = Files.createTempDirectory("sluice-migrate");
    int shipped = shipped();
    assertThat(shipped).isGreaterThanOrEqualTo(10);

    Run dry = migrate("--data-dir", dataDir.toString(), "--dry-run");
    assertThat(dry.exit()).as(dry.err()).isZero();
    assertThat(dry.out())
        .contains("no schema yet, " + shipped + " migration(s) pending")
        .contains("  V1  init")
        .contains("  V" + shipped + "  ")
        .contains("dry run: nothing applied");
    Run again = migrate("--data-dir", dataDir.toString(), "--dry-run");
    assertThat(again.out()).contains("no schema yet, " + shipped + " migration(s) pending");

    Run apply = migrate("--data-dir", dataDir.toString());
    assertThat(apply.exit()).as(apply.err()).isZero();
    assertThat(apply.out())
        .contains("applied " + shipped + " migration(s); schema at version " + shipped);

    Run after = migrate("--data-dir", dataDir.toString(), "--dry-run");
    assertThat(after.out())
        .contains("schema at version " + shipped + ", 0 migration(s) pending")
        .contains("up to date");

    ServerConfig config =
        ServerConfig.load(
            null,
            new ServerConfig.Overrides("127.0.0.1", 0, dataDir.toString()),
            k -> null,
            StandardBackends.create());
    try (SluiceServer server = SluiceServer.start(config, "root-id:root-secret", null)) {
      assertThat(server.store().access().getPrincipal("root")).isPresent();
    }
  }

  @Test
  void aStoreItCannotOpenIsAClearErrorNotAStackTrace() throws Exception {
    Path file = Files.createTempFile("sluice", ".yaml");
    Files.writeString(file, "database:\n  url: jdbc:postgresql://127.0.0.1:1/sluice\n");
    Run run = migrate("--config", file.toString(), "--dry-run");
    assertThat(run.exit()).isEqualTo(1);
    assertThat(run.err())
        .startsWith("Cannot migrate the store jdbc:postgresql://127.0.0.1:1/sluice: ")
        .doesNotContain("\tat ");
  }

  @Test
  void aBadConfigIsAUsageErrorNamingTheKey() throws Exception {
    Path file = Files.createTempFile("sluice", ".yaml");
    Files.writeString(file, "database:\n  maxPoolSize: lots\n");
    Run run = migrate("--config", file.toString(), "--dry-run");
    assertThat(run.exit()).isEqualTo(2);
    assertThat(run.err()).contains("database.maxPoolSize");
  }
}
