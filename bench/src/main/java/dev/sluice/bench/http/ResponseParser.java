package dev.sluice.bench.http;

import java.io.EOFException;
import java.io.IOException;

/**
 * An incremental HTTP/1.1 response parser for the event-loop client: it is fed whatever bytes a
 * non-blocking read returned, keeps its place between reads, and reads the status line, the three
 * headers that frame a response (Content-Length, Transfer-Encoding: chunked, Connection) and the
 * body, which it keeps in an array reused from one response to the next. No allocation per line or
 * per response once its arrays have grown. What it does not handle (an interim 1xx response, a
 * transfer coding other than chunked) fails loudly. One per connection; not thread-safe.
 */
public final class ResponseParser {
  private enum State {
    STATUS,
    HEADERS,
    BODY,
    CHUNK_SIZE,
    CHUNK_DATA,
    CHUNK_END,
    TRAILERS,
    UNTIL_CLOSE,
    DONE
  }

  private State state = State.STATUS;
  private final ByteLine line = new ByteLine();
  private byte[] body = new byte[8 * 1024];
  private int bodyLength;
  private long remaining;
  private int status;
  private long contentLength = -1;
  private boolean chunked;
  private boolean close;
  private boolean started;

  /** Forgets the last response: the next byte fed starts a new one. */
  public void reset() {
    state = State.STATUS;
    line.clear();
    bodyLength = 0;
    status = 0;
    contentLength = -1;
    chunked = false;
    close = false;
    started = false;
  }

  /**
   * Consumes bytes {@code [offset, offset + length)} of {@code bytes} and returns how many it used:
   * all of them, unless the response ended before (then {@link #complete()} is true).
   */
  public int feed(byte[] bytes, int offset, int length) throws IOException {
    int at = offset;
    int end = offset + length;
    if (length > 0) {
      started = true;
    }
    while (at < end && state != State.DONE) {
      switch (state) {
        case BODY, CHUNK_DATA -> {
          int n = (int) Math.min(remaining, end - at);
          appendBody(bytes, at, n);
          at += n;
          remaining -= n;
          if (remaining == 0) {
            state = state == State.BODY ? State.DONE : State.CHUNK_END;
          }
        }
        case UNTIL_CLOSE -> {
          appendBody(bytes, at, end - at);
          at = end;
        }
        default -> {
          int newline = at;
          while (newline < end && bytes[newline] != '\n') {
            newline++;
          }
          line.append(bytes, at, newline - at);
          if (newline == end) {
            return length; // the line continues in the next read
          }
          at = newline + 1;
          line.end();
          onLine();
          line.clear();
        }
      }
    }
    return at - offset;
  }

  /**
   * The connection ended: completes a response framed by the end of the connection, and otherwise
   * throws (the response was cut short, or never began).
   */
  public void endOfInput() throws IOException {
    if (state == State.UNTIL_CLOSE) {
      state = State.DONE;
    } else if (state != State.DONE) {
      throw new EOFException(
          started ? "Connection closed in the middle of a response" : "Connection closed");
    }
  }

  public boolean complete() {
    return state == State.DONE;
  }

  /** Whether any byte of the current response arrived. */
  public boolean started() {
    return started;
  }

  public int status() {
    return status;
  }

  /** The body so far, valid up to {@link #bodyLength()} and until the next {@link #reset()}. */
  public byte[] body() {
    return body;
  }

  public int bodyLength() {
    return bodyLength;
  }

  /**
   * Whether the server closes the connection after this response (or HTTP/1.0 without keep-alive).
   */
  public boolean closeAfter() {
    return close;
  }

  private void onLine() throws IOException {
    switch (state) {
      case STATUS -> statusLine();
      case HEADERS -> {
        if (line.length() == 0) {
          endOfHeaders();
        } else {
          header();
        }
      }
      case CHUNK_SIZE -> {
        long size = line.chunkSize();
        if (size == 0) {
          state = State.TRAILERS;
        } else {
          remaining = size;
          state = State.CHUNK_DATA;
        }
      }
      case CHUNK_END -> {
        if (line.length() != 0) {
          throw new IOException("Chunk not followed by CRLF: " + line.text());
        }
        state = State.CHUNK_SIZE;
      }
      case TRAILERS -> {
        if (line.length() == 0) {
          state = State.DONE;
        }
      }
      default -> throw new IllegalStateException("No line expected in state " + state);
    }
  }

  private void statusLine() throws IOException {
    if (line.length() < 12 || !line.startsWith("HTTP/1.") || line.at(8) != ' ') {
      throw new IOException("Not an HTTP/1.x status line: " + line.text());
    }
    status = (int) line.decimal(9, 12, "status code");
    close = line.at(7) == '0'; // HTTP/1.0: closes unless it says keep-alive
    state = State.HEADERS;
  }

  private void header() throws IOException {
    int colon = line.indexOf((byte) ':');
    if (colon <= 0) {
      return; // not a header: ignored, as the plain-socket client does
    }
    int from = colon + 1;
    int to = line.length();
    while (from < to && (line.at(from) == ' ' || line.at(from) == '\t')) {
      from++;
    }
    while (to > from && (line.at(to - 1) == ' ' || line.at(to - 1) == '\t')) {
      to--;
    }
    if (line.equalsIgnoreCase(0, colon, "content-length")) {
      contentLength = line.decimal(from, to, "Content-Length");
    } else if (line.equalsIgnoreCase(0, colon, "transfer-encoding")) {
      if (!line.equalsIgnoreCase(from, to, "chunked")) {
        throw new IOException("Transfer-Encoding not handled by the loop client: " + line.text());
      }
      chunked = true;
    } else if (line.equalsIgnoreCase(0, colon, "connection")) {
      close = line.equalsIgnoreCase(from, to, "close");
    }
  }

  private void endOfHeaders() throws IOException {
    if (status < 200) {
      throw new IOException("Interim response not handled by the loop client: HTTP " + status);
    }
    if (status == 204 || status == 304) {
      state = State.DONE;
    } else if (chunked) {
      state = State.CHUNK_SIZE;
    } else if (contentLength >= 0) {
      ensureBody(contentLength);
      remaining = contentLength;
      state = contentLength == 0 ? State.DONE : State.BODY;
    } else {
      close = true; // no length: the body ends with the connection
      state = State.UNTIL_CLOSE;
    }
  }

  private void appendBody(byte[] bytes, int from, int n) throws IOException {
    ensureBody(n);
    System.arraycopy(bytes, from, body, bodyLength, n);
    bodyLength += n;
  }

  private void ensureBody(long more) throws IOException {
    long needed = bodyLength + more;
    if (needed > Integer.MAX_VALUE - 16) {
      throw new IOException("Body too large: " + needed + " bytes");
    }
    if (needed > body.length) {
      byte[] larger =
          new byte[(int) Math.min(Integer.MAX_VALUE - 16, Math.max(needed, 2L * body.length))];
      System.arraycopy(body, 0, larger, 0, bodyLength);
      body = larger;
    }
  }
}
