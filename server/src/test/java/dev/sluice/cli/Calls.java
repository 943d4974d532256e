package dev.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

/** Assertions on what the CLI sent. */
final class Calls {
  private Calls() {}

  /** Method, raw path (under the management base), bearer token, and JSON body (null: none). */
  static void assertCall(FakeServer.Request call, String method, String path, String json) {
    assertThat(call.method()).isEqualTo(method);
    assertThat(call.path()).isEqualTo(path);
    assertThat(call.authorization()).isEqualTo("Bearer " + FakeServer.TOKEN);
    if (json == null) {
      assertThat(call.body()).isEmpty();
    } else {
      assertThat(call.contentType()).startsWith("application/json");
      assertThat(call.json()).isEqualTo(FakeServer.json(json));
    }
  }
}
