package dev.sluice.store;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The JDBC URL the store connects with. */
class DatabaseConfigTest {
  private static String urlFor(String url) {
    return new DatabaseConfig(url, null, null, 2, 5000).jdbcUrl();
  }

  @Test
  void anH2FileStoreWritesEveryCommitBeforeItIsAcknowledged() {
    assertThat(urlFor("jdbc:h2:file:/data/catalog;DB_CLOSE_ON_EXIT=FALSE"))
        .startsWith(
            "jdbc:h2:file:/data/catalog;DB_CLOSE_ON_EXIT=FALSE;QUERY_CACHE_SIZE=0;WRITE_DELAY=0;CACHE_SIZE=");
    assertThat(urlFor("jdbc:h2:file:/data/catalog;write_delay=500"))
        .as("an operator's own setting stands")
        .doesNotContain("WRITE_DELAY=0");
    assertThat(urlFor("jdbc:h2:mem:x"))
        .as("no H2 store reuses a cached result that a cascaded delete made stale")
        .isEqualTo("jdbc:h2:mem:x;QUERY_CACHE_SIZE=0");
    assertThat(urlFor("jdbc:postgresql://db/sluice")).isEqualTo("jdbc:postgresql://db/sluice");
  }
}
