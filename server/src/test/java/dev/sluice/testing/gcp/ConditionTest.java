package dev.sluice.testing.gcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The availability-condition subset the fake evaluates, and what it refuses to guess. */
class ConditionTest {
  private static final String OBJECTS = "projects/_/buckets/lake/objects/";
  private static final String BUCKET = "projects/_/buckets/lake";

  @Test
  void tableConditionCoversItsPrefixOnlyNotASiblingThatSharesItsLetters() {
    Condition table = Condition.parse(GcpFixtures.tableCondition("lake", "wh/t/"));

    assertThat(table.evaluate(OBJECTS + "wh/t/data/f.parquet", null)).isTrue();
    assertThat(table.evaluate(OBJECTS + "wh/t/", null)).isTrue();
    assertThat(table.evaluate(OBJECTS + "wh/t2/data/f.parquet", null)).isFalse();
    assertThat(table.evaluate(OBJECTS + "wh/t", null)).isFalse();
    assertThat(table.evaluate(OBJECTS + "wh/", null)).isFalse();
    assertThat(table.evaluate("projects/_/buckets/lake2/objects/wh/t/f", null)).isFalse();
    // A list is on the bucket: only its objectListPrefix attribute can match.
    assertThat(table.evaluate(BUCKET, "wh/t/")).isTrue();
    assertThat(table.evaluate(BUCKET, "wh/t/metadata/")).isTrue();
    assertThat(table.evaluate(BUCKET, "wh/")).isFalse();
    assertThat(table.evaluate(BUCKET, "wh/t2/")).isFalse();
    assertThat(table.evaluate(BUCKET, "")).isFalse();
  }

  @Test
  void celEscapesInSingleAndDoubleQuotedStrings() {
    Condition quote = Condition.parse("resource.name.startsWith('" + OBJECTS + "it\\'s/')");
    assertThat(quote.evaluate(OBJECTS + "it's/x", null)).isTrue();
    assertThat(quote.evaluate(OBJECTS + "it\\'s/x", null)).isFalse();

    Condition backslash = Condition.parse("resource.name.startsWith('" + OBJECTS + "a\\\\b/')");
    assertThat(backslash.evaluate(OBJECTS + "a\\b/x", null)).isTrue();
    assertThat(backslash.evaluate(OBJECTS + "a\\\\b/x", null)).isFalse();

    Condition doubleQuoted =
        Condition.parse("resource.name.startsWith(\"" + OBJECTS + "say \\\"hi\\\" 'x'/\")");
    assertThat(doubleQuoted.evaluate(OBJECTS + "say \"hi\" 'x'/f", null)).isTrue();
  }

  @Test
  void parenthesesAndWhitespaceAroundClauses() {
    Condition condition =
        Condition.parse(
            " ( resource.name.startsWith( '"
                + OBJECTS
                + "a/' ) )\n||\t(api.getAttribute('storage.googleapis.com/objectListPrefix','')"
                + ".startsWith('a/')) ");

    assertThat(condition.evaluate(OBJECTS + "a/x", null)).isTrue();
    assertThat(condition.evaluate(BUCKET, "a/b")).isTrue();
    assertThat(condition.evaluate(OBJECTS + "b/x", null)).isFalse();
  }

  @Test
  void theAttributeDefaultAppliesOnlyWhereTheAttributeIsAbsent() {
    Condition condition =
        Condition.parse(
            "api.getAttribute('storage.googleapis.com/objectListPrefix', 'wh/t/').startsWith('wh/t/')");

    // Not a list: no attribute, the default answers.
    assertThat(condition.evaluate(OBJECTS + "anything", null)).isTrue();
    // A list: its prefix is the attribute, even when empty.
    assertThat(condition.evaluate(BUCKET, "wh/")).isFalse();
    assertThat(condition.evaluate(BUCKET, "")).isFalse();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "resource.name.startsWith('a') && resource.name.startsWith('b')",
        "resource.type == 'storage.googleapis.com/Object'",
        "resource.name.endsWith('x')",
        "!resource.name.startsWith('x')",
        "api.getAttribute('storage.googleapis.com/objectListPrefix', '').endsWith('x')",
        "api.getAttribute('iam.googleapis.com/modifiedGrantsByRole', []).hasOnly([])",
        "resource.name.startsWith('a\\nb')",
        "resource.name.startsWith(r'raw')",
        "resource.name.startsWith('unterminated)",
        "resource.name.startsWith('a') ||",
        "resource.name.startsWith('a') resource.name.startsWith('b')",
        "request.time < timestamp('2030-01-01T00:00:00Z')"
      })
  void anythingOutsideTheSubsetIsRefusedNotGuessed(String expression) {
    assertThatThrownBy(() -> Condition.parse(expression))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("the fake evaluates only a disjunction");
  }

  @Test
  void emptyAndOverlongExpressionsAreRefused() {
    assertThatThrownBy(() -> Condition.parse(" "))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("empty");
    String longPrefix = "x".repeat(Condition.MAX_EXPRESSION_LENGTH);
    assertThatThrownBy(() -> Condition.parse("resource.name.startsWith('" + longPrefix + "')"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("the maximum is 2048");
  }
}
