package dev.sluice.federation;

import dev.sluice.store.Page;
import dev.sluice.store.PageRequest;
import java.util.Comparator;
import java.util.List;
import java.util.function.Function;

/**
 * A remote listing served as Sluice's own pages: sorted by the same key Sluice's store pages by (a
 * namespace's path key, a table's or view's name), the page after the request's key, and a token
 * naming the page's last key: so filtered listings ({@link Page#visible}) page it the same way.
 */
final class RemotePages {
  private RemotePages() {}

  static <T> Page<T> page(List<T> all, PageRequest request, Function<T, String> key) {
    List<T> sorted =
        all.stream()
            .sorted(Comparator.comparing(key))
            .filter(
                item -> request.after() == null || key.apply(item).compareTo(request.after()) > 0)
            .toList();
    if (!request.bounded() || sorted.size() <= request.size()) {
      return new Page<>(sorted, null);
    }
    List<T> page = sorted.subList(0, request.size());
    return new Page<>(page, PageRequest.tokenFor(key.apply(page.get(page.size() - 1))));
  }
}
