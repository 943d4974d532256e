package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.auth.SecretHasher;
import dev.sluice.config.ConfigException;
import dev.sluice.store.DatabaseConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The root's credentials, and when their hash is begun before the store is open. */
class RootCredentialsTest {
  @TempDir Path dir;

  private static DatabaseConfig database(String url) {
    return new DatabaseConfig(url, null, null, 2, 5000);
  }

  @Test
  void aFirstStartIsAnEmbeddedStoreWhoseFileIsNotThereYet() throws Exception {
    DatabaseConfig embedded =
        database("jdbc:h2:file:" + dir.resolve("catalog") + ";DB_CLOSE_ON_EXIT=FALSE");
    assertThat(RootCredentials.firstEmbeddedStart(embedded)).isTrue();

    Files.createFile(dir.resolve("catalog.mv.db"));
    assertThat(RootCredentials.firstEmbeddedStart(embedded)).isFalse();
    assertThat(RootCredentials.firstEmbeddedStart(database("jdbc:postgresql://db/sluice")))
        .as("another store: not known, so no hash ahead")
        .isFalse();
  }

  @Test
  void givenCredentialsAreHashedAheadOnAFirstStart() {
    RootCredentials root =
        RootCredentials.of("admin:s3cret", database("jdbc:h2:file:" + dir.resolve("catalog")));

    assertThat(root.generated()).isFalse();
    assertThat(root.clientId()).isEqualTo("admin");
    assertThat(root.secret()).isEqualTo("s3cret");
    assertThat(SecretHasher.verify("s3cret", root.hash())).isTrue();
    assertThat(root.hash()).as("computed once").isEqualTo(root.hash());
  }

  @Test
  void generatedCredentialsWhenNoneAreGiven() {
    RootCredentials root = RootCredentials.of(" ");

    assertThat(root.generated()).isTrue();
    assertThat(root.clientId()).hasSize(16);
    assertThat(SecretHasher.verify(root.secret(), root.hash())).isTrue();
  }

  @Test
  void malformedCredentialsAreReportedWhenUsed() {
    RootCredentials root = RootCredentials.of("no-colon");

    assertThat(root.generated()).isFalse();
    assertThatThrownBy(root::clientId)
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("<client-id>:<secret>");
    assertThatThrownBy(root::hash).isInstanceOf(ConfigException.class);
  }
}
