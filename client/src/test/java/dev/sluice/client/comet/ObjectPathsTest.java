package dev.sluice.client.comet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class ObjectPathsTest {

  @Test
  void encodesPercentAlwaysAndTheCharactersObjectStoreEncodes() {
    assertThat(ObjectPaths.encodeSegment("100%")).isEqualTo("100%25");
    assertThat(ObjectPaths.encodeSegment("a b=c,d+e")).isEqualTo("a b=c,d+e");
    assertThat(ObjectPaths.encodeSegment("x\\{^}`]\">[~<#|*?y"))
        .isEqualTo("x%5C%7B%5E%7D%60%5D%22%3E%5B%7E%3C%23%7C%2A%3Fy");
    assertThat(ObjectPaths.encodeSegment("café")).isEqualTo("caf%C3%A9");
    assertThat(ObjectPaths.encodePath(List.of("wh", "ns", "t"))).isEqualTo("wh/ns/t");
    assertThat(ObjectPaths.encodePath(List.of())).isEmpty();
  }

  @Test
  void decodingIsTheInverseAndSlashesAtTheEndsAreOptional() {
    List<String> raw = List.of("wh", "100%", "café", "a b", "x#y");
    String encoded = ObjectPaths.encodePath(raw);

    assertThat(ObjectPaths.decodePath(encoded)).isEqualTo(raw);
    assertThat(ObjectPaths.decodePath("/" + encoded)).isEqualTo(raw);
    assertThat(ObjectPaths.decodePath("/" + encoded + "/")).isEqualTo(raw);
    assertThat(ObjectPaths.decodePath("/")).isEmpty();
    assertThat(ObjectPaths.decodePath("")).isEmpty();
    // Characters left unencoded are taken as they are.
    assertThat(ObjectPaths.decodePath("wh/a b/c~d")).containsExactly("wh", "a b", "c~d");
  }

  @Test
  void keysAreSplitIntoRawSegments() {
    assertThat(ObjectPaths.segmentsOfKey("wh/ns/t/")).containsExactly("wh", "ns", "t");
    assertThat(ObjectPaths.segmentsOfKey("wh/100%/t")).containsExactly("wh", "100%", "t");
    assertThat(ObjectPaths.segmentsOfKey("")).isEmpty();
  }

  @Test
  void invalidSegmentsAreRefused() {
    for (String bad :
        List.of("wh//t", "wh/./t", "wh/../t", "..", "wh/a\u0001b", "wh/a\u007fb", "wh/a\u0085b")) {
      assertThatThrownBy(() -> ObjectPaths.segmentsOfKey(bad))
          .as("key %s", bad)
          .isInstanceOf(IllegalArgumentException.class);
    }
    for (String bad :
        List.of(
            "/wh//t",
            "/wh/%2E/t", // decodes to "."
            "/wh/%2e%2E/t", // decodes to ".."
            "/wh/a%00b",
            "/wh/a%0Ab",
            "/wh/a%C2%85b", // U+0085, a C1 control
            "/wh/%", // truncated escape
            "/wh/%4",
            "/wh/%zz",
            "/wh/%FF", // not UTF-8
            "/wh/%C3")) { // truncated UTF-8
      assertThatThrownBy(() -> ObjectPaths.decodePath(bad))
          .as("path %s", bad)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("path '");
    }
    assertThatThrownBy(() -> ObjectPaths.encodeSegment(""))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> ObjectPaths.encodeSegment(".."))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
