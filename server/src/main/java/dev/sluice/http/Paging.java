package dev.sluice.http;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.auth.Sealer;
import dev.sluice.store.Page;
import dev.sluice.store.PageRequest;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.apache.iceberg.exceptions.BadRequestException;

/**
 * The {@code pageToken} / {@code pageSize} query parameters every list takes, and the {@code
 * nextPageToken} of its answer. Without {@code pageSize} a list answers its first {@value
 * PageRequest#DEFAULT_SIZE} items and a token for the rest; a malformed size or token is a 400,
 * before anything is read.
 *
 * <p>Tokens are sealed ({@link Sealer}): a client sees an opaque value that names nothing (not the
 * last key a filtered page read), cannot forge one, and cannot use one for another listing or
 * another caller. The seal binds the route, its path and query parameters (but the page's own) and
 * the caller's identity.
 */
final class Paging {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final Sealer sealer;

  Paging(Sealer sealer) {
    this.sealer = requireNonNull(sealer, "sealer");
  }

  PageRequest request(Exchange x) {
    Integer size = x.queryInt("pageSize");
    String token = x.query("pageToken");
    try {
      return PageRequest.of(token == null || token.isEmpty() ? token : open(x, token), size);
    } catch (IllegalArgumentException e) {
      throw new BadRequestException("%s", e.getMessage());
    }
  }

  /**
   * A page over numeric ids (audit events): a token of another listing is a 400 before any work.
   */
  PageRequest byId(Exchange x) {
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
  PageRequest byKeys(Exchange x, int arity) {
    PageRequest page = request(x);
    try {
      page.afterKeys(arity);
    } catch (IllegalArgumentException e) {
      throw new BadRequestException("%s", e.getMessage());
    }
    return page;
  }

  /** The token a client gets for the page after {@code page}, or null on the last. */
  String nextToken(Exchange x, Page<?> page) {
    return page.nextToken() == null
        ? null
        : sealer.seal(x.pageContext(Paging::context), page.nextToken());
  }

  /**
   * A management list answer, one of the contract's page records: {@code make} gets the rendered
   * items and the next page's token (null on the last).
   */
  <T, R, P> P page(
      Exchange x, Page<T> page, Function<T, R> render, BiFunction<List<R>, String, P> make) {
    return make.apply(page.items().stream().map(render).toList(), nextToken(x, page));
  }

  private String open(Exchange x, String token) {
    try {
      return sealer.open(x.pageContext(Paging::context), token);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "Invalid pageToken: "
              + (token.length() <= 64 ? token : token.substring(0, 64) + "…")
                  .replaceAll("\\p{Cntrl}", "?")
              + " (not a token this server issued for this listing)");
    }
  }

  /** What a token is bound to: this listing (route, path, filters) and this caller. */
  private static String context(Exchange x) {
    Map<String, String> query = new TreeMap<>(x.queryParams());
    query.remove("pageToken");
    query.remove("pageSize");
    try {
      return JSON.writeValueAsString(
          List.of(
              "page",
              String.valueOf(x.routeTemplate()),
              new TreeMap<>(x.rawPathParams()),
              query,
              x.principal() == null ? "" : x.principal().identity()));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("Cannot bind a page token", e);
    }
  }
}
