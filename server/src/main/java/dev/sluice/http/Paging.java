package dev.sluice.http;

import dev.sluice.store.Page;
import dev.sluice.store.PageRequest;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apache.iceberg.exceptions.BadRequestException;

/**
 * The {@code pageToken} / {@code pageSize} query parameters every list takes, and the {@code
 * nextPageToken} of its answer. Without {@code pageSize} a list answers its first {@value
 * PageRequest#DEFAULT_SIZE} items and a token for the rest; a malformed size or token is a 400,
 * before anything is read.
 */
final class Paging {
  private Paging() {}

  static PageRequest request(Exchange x) {
    Integer size = x.queryInt("pageSize");
    try {
      return PageRequest.of(x.query("pageToken"), size);
    } catch (IllegalArgumentException e) {
      throw new BadRequestException("%s", e.getMessage());
    }
  }

  /**
   * A page over numeric ids (audit events): a token of another listing is a 400 before any work.
   */
  static PageRequest byId(Exchange x) {
    PageRequest page = request(x);
    try {
      page.afterId();
    } catch (IllegalArgumentException e) {
      throw new BadRequestException("%s", e.getMessage());
    }
    return page;
  }

  /**
   * A page over keys of {@code arity} columns: a token of another listing is a 400 before any work.
   */
  static PageRequest byKeys(Exchange x, int arity) {
    PageRequest page = request(x);
    try {
      page.afterKeys(arity);
    } catch (IllegalArgumentException e) {
      throw new BadRequestException("%s", e.getMessage());
    }
    return page;
  }

  /** A management list answer: {@code {"<field>": [...], "nextPageToken": token or null}}. */
  static <T> Map<String, Object> body(String field, Page<T> page, Function<T, ?> render) {
    return body(field, page.items().stream().map(render).toList(), page.nextToken());
  }

  static Map<String, Object> body(String field, List<?> items, String nextPageToken) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put(field, items);
    out.put("nextPageToken", nextPageToken);
    return out;
  }
}
