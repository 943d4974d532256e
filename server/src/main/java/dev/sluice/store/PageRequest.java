package dev.sluice.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * Keyset pagination: the token is the last key of the previous page, base64url-encoded, so pages
 * stay stable under concurrent inserts and cost the same at any depth. A client that names no page
 * size gets {@link #DEFAULT_SIZE} items and a token for the rest: no request reads a whole table.
 * Keys of several columns travel as a JSON array of strings.
 */
public record PageRequest(String after, int size) {
  private static final java.util.regex.Pattern TOKEN =
      java.util.regex.Pattern.compile("[A-Za-z0-9_-]+={0,2}");

  public static final int DEFAULT_SIZE = 100;
  public static final int MAX_SIZE = 1000;
  private static final ObjectMapper JSON = new ObjectMapper();

  public PageRequest {
    if (size < 1) {
      throw new IllegalArgumentException("Invalid page size: " + size);
    }
  }

  /**
   * A client's page: {@code pageSize} absent means {@link #DEFAULT_SIZE}; otherwise 1 to {@link
   * #MAX_SIZE}. An empty token is the first page (Iceberg's client sends one).
   */
  public static PageRequest of(String pageToken, Integer pageSize) {
    if (pageSize != null && (pageSize < 1 || pageSize > MAX_SIZE)) {
      throw new IllegalArgumentException(
          "Invalid pageSize: " + pageSize + " (must be between 1 and " + MAX_SIZE + ")");
    }
    return new PageRequest(decode(pageToken), pageSize == null ? DEFAULT_SIZE : pageSize);
  }

  /** The first page of {@code size} items, for server-side callers that walk a listing. */
  public static PageRequest first(int size) {
    return new PageRequest(null, size);
  }

  /**
   * Everything at once. Only for callers that need every item of a listing that is small by nature
   * (Iceberg's {@code Catalog} interface methods); never for a client request.
   */
  public static PageRequest all() {
    return new PageRequest(null, Integer.MAX_VALUE);
  }

  /** The page after the one that ended with {@code token}, same size. */
  public PageRequest next(String token) {
    return new PageRequest(decode(token), size);
  }

  public boolean bounded() {
    return size != Integer.MAX_VALUE;
  }

  /** The previous page's last key as a numeric id (audit events), or null on the first page. */
  public Long afterId() {
    if (after == null) {
      return null;
    }
    try {
      long id = Long.parseLong(after);
      if (id < 1) {
        throw new NumberFormatException();
      }
      return id;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("Invalid pageToken: not a token of this listing");
    }
  }

  /** The previous page's last key of {@code arity} columns, or null on the first page. */
  public List<String> afterKeys(int arity) {
    if (after == null) {
      return null;
    }
    try {
      JsonNode node = JSON.readTree(after);
      if (node != null && node.isArray() && node.size() == arity) {
        List<String> keys = new ArrayList<>(arity);
        for (JsonNode key : node) {
          if (!key.isTextual()) {
            break;
          }
          keys.add(requireKey(key.asText()));
        }
        if (keys.size() == arity) {
          return keys;
        }
      }
    } catch (JsonProcessingException e) {
      // falls through: not a key of this listing
    }
    throw new IllegalArgumentException("Invalid pageToken: not a token of this listing");
  }

  public static String tokenFor(String lastKey) {
    return Base64.getUrlEncoder()
        .withoutPadding()
        .encodeToString(lastKey.getBytes(StandardCharsets.UTF_8));
  }

  public static String tokenFor(List<String> lastKeys) {
    try {
      return tokenFor(JSON.writeValueAsString(lastKeys));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("Cannot encode a page token", e);
    }
  }

  private static String decode(String pageToken) {
    if (pageToken == null || pageToken.isEmpty()) {
      return null;
    }
    if (!TOKEN.matcher(pageToken).matches()) {
      throw invalidToken(pageToken);
    }
    try {
      byte[] bytes = Base64.getUrlDecoder().decode(pageToken);
      String key =
          StandardCharsets.UTF_8
              .newDecoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT)
              .decode(ByteBuffer.wrap(bytes))
              .toString();
      return requireKey(key);
    } catch (IllegalArgumentException | CharacterCodingException e) {
      throw invalidToken(pageToken);
    }
  }

  private static IllegalArgumentException invalidToken(String pageToken) {
    return new IllegalArgumentException(
        "Invalid pageToken: " + abbreviate(pageToken) + " (not a token this server issued)");
  }

  /**
   * Keys are names, which never hold control characters (U+001F separates namespace levels); a NUL
   * in particular would make PostgreSQL refuse the query: a client error, not an outage.
   */
  private static String requireKey(String key) {
    for (int i = 0; i < key.length(); i++) {
      char c = key.charAt(i);
      if (Character.isISOControl(c) && c != '\u001F') {
        throw new IllegalArgumentException("Invalid pageToken: not a token of this listing");
      }
    }
    return key;
  }

  private static String abbreviate(String token) {
    return token.length() <= 64 ? token : token.substring(0, 64) + "…";
  }
}
