package dev.sluice.store;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.Predicate;

/** One page of a listing; {@code nextToken} is null on the last page. */
public record Page<T>(List<T> items, String nextToken) {
  /**
   * How many items one filtered page may read past what it answers ({@link #visible}); beyond, it
   * answers fewer than asked with a token that leads on.
   */
  public static final int MAX_SCANNED = 10 * PageRequest.MAX_SIZE;

  public Page {
    // Not List.copyOf: Iceberg response builders call contains(null), which it rejects.
    items = java.util.Collections.unmodifiableList(new java.util.ArrayList<>(items));
  }

  /**
   * A page of only the items {@code visible} keeps, as full as asked: pages of the listing ({@code
   * fetch}) are read until {@code page.size()} visible items are found, the listing ends, or {@link
   * #MAX_SCANNED} items were read. So a caller who may see few items of a long listing gets full
   * pages, not empty pages that count what it may not see. The token leads on after the last item
   * answered ({@code tokenOf} gives an item's token, as the listing makes it), or after the last
   * item read when the scan stopped short.
   */
  public static <T> Page<T> visible(
      PageRequest page,
      Function<PageRequest, Page<T>> fetch,
      Predicate<T> visible,
      Function<T, String> tokenOf) {
    if (!page.bounded()) {
      Page<T> all = fetch.apply(page);
      return new Page<>(all.items().stream().filter(visible).toList(), all.nextToken());
    }
    List<T> shown = new ArrayList<>();
    PageRequest request = new PageRequest(page.after(), Math.max(page.size(), 100));
    int scanned = 0;
    while (true) {
      Page<T> read = fetch.apply(request);
      List<T> items = read.items();
      for (int i = 0; i < items.size(); i++) {
        T item = items.get(i);
        if (visible.test(item)) {
          shown.add(item);
        }
        if (shown.size() == page.size()) {
          // No token when what was read shows nothing visible follows: a last page is not
          // followed by an empty one that says something hidden is there.
          boolean more =
              read.nextToken() != null
                  || items.subList(i + 1, items.size()).stream().anyMatch(visible);
          return new Page<>(shown, more ? tokenOf.apply(item) : null);
        }
      }
      scanned += items.size();
      if (read.nextToken() == null || scanned >= MAX_SCANNED) {
        return new Page<>(shown, read.nextToken());
      }
      request = request.next(read.nextToken());
    }
  }
}
