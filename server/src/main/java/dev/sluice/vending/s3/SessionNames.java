package dev.sluice.vending.s3;

import java.util.List;
import java.util.Map;
import java.util.StringJoiner;

/**
 * STS session names and tag values that attribute a credential to who asked: the configured fields
 * (principal by default) joined with '@', reduced to STS's character set ({@code [\w+=,.@-]}) and
 * length (2..64), so the principal shows in the store's audit logs.
 */
final class SessionNames {
  private SessionNames() {}

  static String of(List<String> fields, Map<String, String> attribution) {
    StringJoiner joined = new StringJoiner("@");
    for (String field : fields) {
      String value = attribution.get(field);
      if (value != null && !value.isEmpty()) {
        joined.add(value);
      }
    }
    String name = joined.toString().replaceAll("[^\\w+=,.@-]", "-");
    if (name.length() > 64) {
      name = name.substring(0, 64);
    }
    return name.length() < 2 ? "sluice-" + name : name;
  }

  static String tagValue(String value) {
    String cleaned = value.replaceAll("[^\\p{L}\\p{Z}\\p{N}_.:/=+\\-@]", "-");
    return cleaned.length() > 256 ? cleaned.substring(0, 256) : cleaned;
  }
}
