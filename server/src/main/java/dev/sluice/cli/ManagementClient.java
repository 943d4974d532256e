package dev.sluice.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.api.ManagementJson;
import dev.sluice.api.Paged;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.RecordComponent;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * JSON calls to {@code /api/management/v1}, and to the Iceberg REST API under {@code
 * /api/catalog/v1} for the namespace and table commands. Authenticates on the first call and reuses
 * the token for the rest of the command (a command makes a handful of calls, and one per page of a
 * list).
 */
final class ManagementClient {
  static final String MANAGEMENT_PATH = "/api/management/v1";
  static final String CATALOG_PATH = "/api/catalog/v1";

  /** Admin commands never need storage credentials: asked on every Iceberg call. */
  static final String DELEGATION_HEADER = "X-Iceberg-Access-Delegation";

  private final URI base;
  private final String clientId;
  private final String clientSecret;
  private final ObjectMapper mapper = new ObjectMapper();
  private final HttpTransport transport;
  private String token;

  ManagementClient(URI base, String clientId, String clientSecret) {
    this(base, clientId, clientSecret, new HttpTransport());
  }

  ManagementClient(URI base, String clientId, String clientSecret, HttpTransport transport) {
    this.transport = transport;
    this.base = base;
    this.clientId = clientId;
    this.clientSecret = clientSecret;
  }

  /** The server's base URL, as the command was given it. */
  URI base() {
    return base;
  }

  /** The response body, or null when the server sent none (204, or an empty 201). */
  JsonNode get(String path) {
    return call("GET", path, null);
  }

  /**
   * A whole listing: follows {@code nextPageToken} from page to page (the server answers a default
   * page when no size is asked for) and returns the first page's document with every page's items
   * under {@code field} and no token, as if the server had sent it in one piece.
   */
  JsonNode list(String path, String field) {
    return list(path, field, 0);
  }

  /**
   * As {@link #list(String, String)}, stopping once {@code limit} items are read (0: no limit);
   * {@code path} may carry a query (filters), which every page keeps.
   */
  JsonNode list(String path, String field, int limit) {
    return pages(this::get, path, field, "nextPageToken", limit);
  }

  /**
   * {@link #list(String, String, int)} read as the contract's page record {@code page}: its items,
   * with the whole document for json mode. The list's field is the record's list component, so the
   * record alone names it.
   */
  <I, P extends Record & Paged<I>> Answer<List<I>> listAll(String path, Class<P> page, int limit) {
    JsonNode whole = list(path, itemsField(page), limit);
    return new Answer<>(whole, document -> read(document, path, page).items());
  }

  /** As {@link #listAll(String, Class, int)}, every item. */
  <I, P extends Record & Paged<I>> Answer<List<I>> listAll(String path, Class<P> page) {
    return listAll(path, page, 0);
  }

  private static String itemsField(Class<? extends Record> page) {
    for (RecordComponent component : page.getRecordComponents()) {
      if (component.getType() == List.class) {
        return component.getName();
      }
    }
    throw new IllegalArgumentException(page.getSimpleName() + " has no list of items");
  }

  /**
   * An Iceberg REST listing under {@code /api/catalog/v1}: follows {@code next-page-token} like
   * {@link #list(String, String)} follows the management API's {@code nextPageToken}.
   */
  JsonNode icebergList(String path, String field) {
    return pages(p -> iceberg("GET", p, null), path, field, "next-page-token", 0);
  }

  private JsonNode pages(
      Function<String, JsonNode> get, String path, String field, String tokenField, int limit) {
    JsonNode first = get.apply(path);
    ArrayNode all = mapper.createArrayNode();
    Set<String> seen = new HashSet<>();
    JsonNode page = first;
    while (true) {
      for (JsonNode item : Lists.items(page, field)) {
        if (limit > 0 && all.size() >= limit) {
          break;
        }
        all.add(item);
      }
      String token = page.path(tokenField).asText("");
      if (token.isEmpty() || (limit > 0 && all.size() >= limit)) {
        break;
      }
      if (!seen.add(token)) {
        throw new AdminFailure("the server sent the same page token twice while listing " + path);
      }
      page =
          get.apply(
              path
                  + (path.contains("?") ? "&" : "?")
                  + "pageToken="
                  + URLEncoder.encode(token, StandardCharsets.UTF_8));
    }
    ObjectNode whole = ((ObjectNode) first).deepCopy();
    whole.set(field, all);
    whole.remove(tokenField);
    return whole;
  }

  /**
   * A call to the Iceberg REST API ({@code path} under {@code /api/catalog/v1}), declining storage
   * credentials ({@code X-Iceberg-Access-Delegation: none}).
   */
  JsonNode iceberg(String method, String path, JsonNode body) {
    return call(method, CATALOG_PATH + path, body, Map.of(DELEGATION_HEADER, "none"));
  }

  /** {@code body}: a request record of the management API's contract ({@code dev.sluice.api}). */
  JsonNode post(String path, Record body) {
    return call("POST", path, body);
  }

  /** {@code body}: a request record of the management API's contract ({@code dev.sluice.api}). */
  JsonNode put(String path, Record body) {
    return call("PUT", path, body);
  }

  /** {@code GET path} read as the contract's {@code type} (fields a newer server adds ignored). */
  <T> T get(String path, Class<T> type) {
    return read(get(path), path, type);
  }

  /** {@code GET path}: the document, and the contract's {@code type} that text output reads. */
  <T> Answer<T> fetch(String path, Class<T> type) {
    return answer(get(path), path, type);
  }

  /** As {@link #post(String, Record)}, the answer also read as the contract's {@code type}. */
  <T> Answer<T> post(String path, Record body, Class<T> type) {
    return answer(post(path, body), path, type);
  }

  /** As {@link #put(String, Record)}, the answer also read as the contract's {@code type}. */
  <T> Answer<T> put(String path, Record body, Class<T> type) {
    return answer(put(path, body), path, type);
  }

  private static <T> Answer<T> answer(JsonNode document, String path, Class<T> type) {
    return new Answer<>(document, d -> read(d, path, type));
  }

  private static <T> T read(JsonNode answer, String path, Class<T> type) {
    try {
      return ManagementJson.lenient().treeToValue(answer, type);
    } catch (IOException | IllegalArgumentException e) {
      throw new AdminFailure(
          "the server's answer to " + path + " is not a " + type.getSimpleName(), e);
    }
  }

  JsonNode delete(String path) {
    return call("DELETE", path, null);
  }

  private JsonNode call(String method, String path, Object body) {
    return call(method, MANAGEMENT_PATH + path, body, Map.of());
  }

  private JsonNode call(String method, String path, Object body, Map<String, String> headers) {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(base + path))
            .timeout(HttpTransport.REQUEST_TIMEOUT)
            .header("Authorization", "Bearer " + token())
            .header("Accept", "application/json");
    headers.forEach(request::header);
    if (body == null) {
      request.method(method, HttpRequest.BodyPublishers.noBody());
    } else {
      request
          .header("Content-Type", "application/json")
          .method(method, HttpRequest.BodyPublishers.ofString(write(body), StandardCharsets.UTF_8));
    }
    HttpResponse<String> response = transport.send(request.build());
    if (response.statusCode() / 100 != 2) {
      throw ApiException.from(response.statusCode(), response.body());
    }
    return read(response.body());
  }

  private String token() {
    if (token == null) {
      token = new TokenClient(transport, mapper).fetch(base, clientId, clientSecret);
    }
    return token;
  }

  private String write(Object body) {
    try {
      return ManagementJson.strict().writeValueAsString(body);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private JsonNode read(String body) {
    if (body == null || body.isBlank()) {
      return null;
    }
    try {
      return mapper.readTree(body);
    } catch (IOException e) {
      throw new AdminFailure("the server answered with invalid JSON", e);
    }
  }
}
