package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** {@code serve}'s options read without picocli, and everything else left to picocli. */
class ServeArgumentsTest {
  private static Optional<Main.Serve> parse(String... args) {
    return ServeArguments.parse(args);
  }

  @Test
  void readsEachOptionInBothForms() {
    Main.Serve serve =
        parse(
                "serve",
                "--host",
                "0.0.0.0",
                "--port=8282",
                "--data-dir",
                "/var/lib/sluice",
                "--config=/etc/sluice/sluice.yaml")
            .orElseThrow();

    assertThat(serve.host).isEqualTo("0.0.0.0");
    assertThat(serve.port).isEqualTo(8282);
    assertThat(serve.dataDir).isEqualTo("/var/lib/sluice");
    assertThat(serve.config).isEqualTo(Path.of("/etc/sluice/sluice.yaml"));
    assertThat(parse("serve").orElseThrow().port).as("nothing given").isNull();
  }

  @Test
  void leavesToPicocliWhatItDoesNotKnow() {
    assertThat(parse()).isEmpty();
    assertThat(parse("catalogs", "list")).isEmpty();
    assertThat(parse("serve", "--help")).isEmpty();
    assertThat(parse("serve", "-h")).isEmpty();
    assertThat(parse("serve", "--version")).isEmpty();
    assertThat(parse("serve", "--port")).as("no value").isEmpty();
    assertThat(parse("serve", "--port", "eighty")).isEmpty();
    assertThat(parse("serve", "--port", "123456")).isEmpty();
    assertThat(parse("serve", "--port", "1", "--port", "2")).as("given twice").isEmpty();
    assertThat(parse("serve", "--host", "--port", "1")).as("a value like an option").isEmpty();
    assertThat(parse("serve", "--host=")).as("an empty value").isEmpty();
    assertThat(parse("serve", "@args.txt")).as("an argument file").isEmpty();
    assertThat(parse("serve", "--data-dir", "@d")).isEmpty();
    assertThat(parse("serve", "--hots", "h")).as("a typo").isEmpty();
    assertThat(parse("serve", "extra")).isEmpty();
  }
}
