package dev.sluice.audit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.store.AuditEvent;
import dev.sluice.store.DatabaseConfig;
import dev.sluice.store.JdbcStore;
import dev.sluice.testing.NeedsTestBeds;
import dev.sluice.testing.PostgresTestDatabase;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Fitting an event's fields to its columns, and those column sizes against the real schema. */
class AuditFieldsTest {
  @TempDir Path dir;

  @Test
  void aValueThatFitsIsTheSameInstance() {
    AuditEvent e =
        new AuditEvent(
            0, 1, "jane", List.of("a", "b"), "loadTable", "lake", "table a.t", true, "q1");
    assertThat(AuditFields.fit(e)).isSameAs(e);
    String exact = "x".repeat(256);
    assertThat(AuditFields.fit(exact, 256)).isSameAs(exact);
  }

  @Test
  void aLongValueKeepsAPrefixAndSaysHowMuchWasCut() {
    for (int length : List.of(257, 300, 5_000, 99_999, 1_000_000)) {
      String value = "v".repeat(length);
      String fitted = AuditFields.fit(value, 256);
      assertThat(fitted.length())
          .isBetween(250, 256); // the marker of a shorter cut may have fewer digits
      int kept = fitted.indexOf('…');
      assertThat(value).startsWith(fitted.substring(0, kept));
      assertThat(fitted.substring(kept)).isEqualTo(AuditFields.marker(length - kept));
    }
    assertThat(AuditFields.fit("a".repeat(100), 64))
        .hasSizeLessThanOrEqualTo(64)
        .endsWith("chars]");
  }

  @Test
  void aSurrogatePairIsNeverSplitAndBadCharactersAreReplaced() {
    String emoji = "\uD83D\uDE00";
    for (int pad = 0; pad < 4; pad++) {
      String fitted = AuditFields.fit("x".repeat(pad) + emoji.repeat(200), 64);
      assertThat(fitted.length()).isLessThanOrEqualTo(64);
      int cut = fitted.indexOf('…');
      assertThat(Character.isHighSurrogate(fitted.charAt(cut - 1))).isFalse();
    }
    assertThat(AuditFields.fit("a\u0000b\u001Fc\uD800d" + emoji, 64))
        .isEqualTo("a\uFFFDb\uFFFDc\uFFFDd" + emoji);
  }

  @Test
  void theSafeFormIsShortPrintableAsciiWithTheReason() {
    AuditEvent e =
        new AuditEvent(
            0,
            5,
            "p\u00e9\u0000".repeat(500),
            List.of("r"),
            "getCatalog",
            "c".repeat(5_000),
            "catalog",
            false,
            "q1",
            3,
            9);
    AuditEvent safe = AuditFields.safeForm(e, "refused, SQLState 22001");
    assertThat(safe.principal())
        .hasSizeLessThanOrEqualTo(64)
        .matches("[ -~]*")
        .endsWith("...[truncated]");
    assertThat(safe.catalog()).hasSizeLessThanOrEqualTo(64);
    assertThat(safe.securable())
        .startsWith("[stored in safe form: refused, SQLState 22001] catalog");
    assertThat(safe.roles()).isEmpty();
    assertThat(List.of(safe.allowed(), safe.time(), safe.count(), safe.lastTime()))
        .containsExactly(false, 5L, 3, 9L);
  }

  @Test
  void theLimitsAreTheColumnSizesOnH2() throws Exception {
    String url = "jdbc:h2:file:" + dir.resolve("store") + ";DB_CLOSE_ON_EXIT=FALSE";
    try (JdbcStore store = JdbcStore.open(new DatabaseConfig(url, null, null, 2, 5000))) {
      assertThat(columnSizes(url)).containsAllEntriesOf(AuditFields.COLUMNS);
    }
  }

  @Test
  @NeedsTestBeds
  void theLimitsAreTheColumnSizesOnPostgres() throws Exception {
    String url = PostgresTestDatabase.fresh();
    try (JdbcStore store = JdbcStore.open(new DatabaseConfig(url, null, null, 2, 5000))) {
      assertThat(columnSizes(url)).containsAllEntriesOf(AuditFields.COLUMNS);
    }
  }

  private static Map<String, Integer> columnSizes(String url) throws Exception {
    Map<String, Integer> sizes = new HashMap<>();
    try (Connection conn = DriverManager.getConnection(url);
        Statement st = conn.createStatement();
        ResultSet rs =
            st.executeQuery(
                "SELECT column_name, character_maximum_length FROM information_schema.columns"
                    + " WHERE lower(table_name) = 'audit_events' AND character_maximum_length IS NOT NULL")) {
      while (rs.next()) {
        sizes.put(rs.getString(1).toLowerCase(Locale.ROOT), rs.getInt(2));
      }
    }
    return sizes;
  }
}
