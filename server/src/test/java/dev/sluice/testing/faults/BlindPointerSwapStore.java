package dev.sluice.testing.faults;

import dev.sluice.store.ContentRecord;
import dev.sluice.store.IdempotencyClaim;
import dev.sluice.store.MetadataSwap;
import dev.sluice.store.Store;
import java.util.List;

/**
 * TEST-ONLY, a broken store: a metadata pointer swap overwrites the pointer whatever it holds now,
 * instead of comparing it with the expected location. So two commits from one base both succeed,
 * and the later one drops the earlier: what the durability tests' history check must catch.
 */
final class BlindPointerSwapStore extends ForwardingStore {
  BlindPointerSwapStore(Store delegate) {
    super(delegate);
  }

  /** Each swap expects whatever its pointer holds now: the compare-and-set always "holds". */
  @Override
  public void swapMetadata(String catalog, List<MetadataSwap> swaps) {
    delegate.swapMetadata(
        catalog,
        swaps.stream()
            .map(
                swap ->
                    new MetadataSwap(
                        swap.namespace(),
                        swap.name(),
                        swap.kind(),
                        delegate
                            .getContent(catalog, swap.namespace(), swap.name())
                            .map(ContentRecord::metadataLocation)
                            .orElse(swap.expected()),
                        swap.next(),
                        swap.claims()))
            .toList());
  }

  @Override
  public Store claiming(IdempotencyClaim idempotency) {
    return new BlindPointerSwapStore(delegate.claiming(idempotency));
  }
}
