package dev.sluice.location;

import java.nio.charset.StandardCharsets;

/**
 * Turns a namespace level or a table or view name into one path segment of a default location. The
 * mapping is injective and never yields a separator, an empty segment, a relative segment or a
 * percent sign: letters, digits, {@code _}, {@code -} and {@code .} stay as they are, every other
 * UTF-8 byte becomes {@code ~HH}, and so does every dot of a name made only of dots. So {@code
 * a/b}, {@code ..}, {@code %2F} or a look-alike letter can neither escape the parent folder nor
 * land in another name's folder; {@code ~} is used instead of {@code %} because readers that
 * percent-decode paths (Hadoop's {@code Path}) would otherwise turn {@code a%2Fb} back into {@code
 * a/b}.
 */
public final class LocationNames {
  private static final char ESCAPE = '~';
  private static final char[] HEX = "0123456789ABCDEF".toCharArray();

  private LocationNames() {}

  public static String segment(String name) {
    if (name == null || name.isEmpty()) {
      throw new IllegalArgumentException("Invalid name for a location: empty");
    }
    boolean onlyDots = name.chars().allMatch(c -> c == '.');
    StringBuilder out = new StringBuilder(name.length());
    for (byte b : name.getBytes(StandardCharsets.UTF_8)) {
      char c = (char) (b & 0xff);
      if (isPlain(c) && !(onlyDots && c == '.')) {
        out.append(c);
      } else {
        out.append(ESCAPE).append(HEX[(b >> 4) & 0xf]).append(HEX[b & 0xf]);
      }
    }
    return out.toString();
  }

  private static boolean isPlain(char c) {
    return (c >= 'a' && c <= 'z')
        || (c >= 'A' && c <= 'Z')
        || (c >= '0' && c <= '9')
        || c == '_'
        || c == '-'
        || c == '.';
  }
}
