package dev.sluice.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonTest {

  @Test
  void readsObjectsArraysStringsNumbersAndLiterals() {
    Map<String, Object> doc =
        Json.parseObject(
            " {\"a\": [1, -2, 3.5, 1e3, 12345678901234567890], \"b\": {\"c\": null},"
                + " \"t\": true, \"f\": false, \"s\": \"x\\\"y\\\\z\\/\\n\\u00e9\\ud83d\\ude00\"} ");

    assertThat(doc.keySet()).containsExactly("a", "b", "t", "f", "s");
    assertThat(doc.get("a")).isEqualTo(List.of(1L, -2L, 3.5, 1000.0, 1.2345678901234567e19));
    assertThat(((Map<?, ?>) doc.get("b")).containsKey("c")).isTrue();
    assertThat(((Map<?, ?>) doc.get("b")).get("c")).isNull();
    assertThat(doc.get("t")).isEqualTo(true);
    assertThat(doc.get("f")).isEqualTo(false);
    assertThat(doc.get("s")).isEqualTo("x\"y\\z/\n\u00e9\ud83d\ude00");
  }

  @Test
  void emptyContainers() {
    assertThat(Json.parse("{}")).isEqualTo(Map.of());
    assertThat(Json.parse("[ ]")).isEqualTo(List.of());
  }

  @Test
  void refusesMalformedDocumentsNamingTheOffsetNotTheContent() {
    for (String bad :
        List.of(
            "",
            "{",
            "{\"a\" 1}",
            "{\"a\":1,}",
            "[1 2]",
            "\"unterminated",
            "{\"secret\":\"s3cr3t\"} trailing",
            "01",
            "-",
            "1.",
            "tru",
            "\"bad \\x escape\"",
            "\"raw\ncontrol\"",
            "[".repeat(100) + "]".repeat(100))) {
      assertThatThrownBy(() -> Json.parse(bad))
          .as("'%s'", bad)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageStartingWith("invalid JSON at offset")
          .hasMessageNotContaining("s3cr3t");
    }
  }

  @Test
  void parseObjectRefusesOtherValues() {
    assertThatThrownBy(() -> Json.parseObject("[1]"))
        .hasMessage("expected a JSON object, found an array");
  }
}
