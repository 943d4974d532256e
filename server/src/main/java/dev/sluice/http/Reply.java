package dev.sluice.http;

/**
 * What a route answers: a status and a body (serialized by the route's mapper; a {@code byte[]}
 * is JSON already serialized), or no body.
 */
public record Reply(int status, Object body, boolean iceberg) {
  public static final Reply NO_CONTENT = new Reply(204, null, true);

  public static Reply ok(Object icebergBody) {
    return new Reply(200, icebergBody, true);
  }

  public static Reply okPlain(Object body) {
    return new Reply(200, body, false);
  }

  public static Reply status(int status, Object plainBody) {
    return new Reply(status, plainBody, false);
  }
}
