package dev.sluice.bench.http;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * One line of an HTTP head (status line, header, chunk size) as bytes, in an array reused from line
 * to line, with the ASCII matching {@link ResponseParser} needs: no String per line.
 */
final class ByteLine {
  private static final int MAX_LINE = 64 * 1024;

  private byte[] bytes = new byte[256];
  private int length;

  void clear() {
    length = 0;
  }

  void append(byte[] from, int offset, int n) throws IOException {
    if (length + n > bytes.length) {
      if (length + n > MAX_LINE) {
        throw new IOException("Header line longer than " + MAX_LINE + " bytes");
      }
      byte[] larger = new byte[Math.min(MAX_LINE, Math.max(bytes.length * 2, length + n))];
      System.arraycopy(bytes, 0, larger, 0, length);
      bytes = larger;
    }
    System.arraycopy(from, offset, bytes, length, n);
    length += n;
  }

  /** The line is complete (its LF seen, not appended): drops the CR before it. */
  void end() {
    if (length > 0 && bytes[length - 1] == '\r') {
      length--;
    }
  }

  int length() {
    return length;
  }

  byte at(int i) {
    return bytes[i];
  }

  int indexOf(byte b) {
    for (int i = 0; i < length; i++) {
      if (bytes[i] == b) {
        return i;
      }
    }
    return -1;
  }

  boolean startsWith(String prefix) {
    if (length < prefix.length()) {
      return false;
    }
    for (int i = 0; i < prefix.length(); i++) {
      if (bytes[i] != prefix.charAt(i)) {
        return false;
      }
    }
    return true;
  }

  /** Bytes {@code [from, to)} equal {@code lowerCase} (a header name or token), ignoring case. */
  boolean equalsIgnoreCase(int from, int to, String lowerCase) {
    if (to - from != lowerCase.length()) {
      return false;
    }
    for (int i = from; i < to; i++) {
      int b = bytes[i];
      if (b >= 'A' && b <= 'Z') {
        b += 'a' - 'A';
      }
      if (b != lowerCase.charAt(i - from)) {
        return false;
      }
    }
    return true;
  }

  /** The decimal number in bytes {@code [from, to)}; {@code what} names it in the error. */
  long decimal(int from, int to, String what) throws IOException {
    if (from == to || to - from > 18) {
      throw new IOException("Bad " + what + ": " + text());
    }
    long value = 0;
    for (int i = from; i < to; i++) {
      int digit = bytes[i] - '0';
      if (digit < 0 || digit > 9) {
        throw new IOException("Bad " + what + ": " + text());
      }
      value = value * 10 + digit;
    }
    return value;
  }

  /** A chunk-size line: hexadecimal digits, then maybe {@code ;extensions} (ignored). */
  long chunkSize() throws IOException {
    long size = 0;
    int digits = 0;
    for (int i = 0; i < length && bytes[i] != ';'; i++) {
      byte b = bytes[i];
      int digit = Character.digit(b, 16);
      if (digit >= 0) {
        size = size * 16 + digit;
        if (++digits > 7) {
          throw new IOException("Chunk too large: " + text());
        }
      } else if (b != ' ' && b != '\t') {
        throw new IOException("Bad chunk size: " + text());
      }
    }
    if (digits == 0) {
      throw new IOException("Bad chunk size: " + text());
    }
    return size;
  }

  /** For error messages only. */
  String text() {
    return new String(bytes, 0, Math.min(length, 200), StandardCharsets.ISO_8859_1);
  }
}
