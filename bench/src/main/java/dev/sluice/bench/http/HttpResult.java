package dev.sluice.bench.http;

import java.nio.charset.StandardCharsets;

/** A response as the load generator needs it: the status and the raw body bytes. */
public record HttpResult(int status, byte[] body) {
  public boolean ok() {
    return status >= 200 && status < 300;
  }

  public String text() {
    return new String(body, StandardCharsets.UTF_8);
  }

  /** The start of the body, for error messages that must stay one line. */
  public String excerpt() {
    String text = text().replaceAll("\\s+", " ");
    return text.length() > 300 ? text.substring(0, 300) + "…" : text;
  }
}
