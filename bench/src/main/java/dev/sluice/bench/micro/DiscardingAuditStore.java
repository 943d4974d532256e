package dev.sluice.bench.micro;

import dev.sluice.store.AccessStore;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;

/**
 * The store behind the benchmarks' {@link dev.sluice.audit.AuditLog}: takes the writer thread's
 * batches and drops them. At benchmark rates (millions of decisions a second) the real H2 insert
 * could not keep up, the audit queue would fill, and both sides of the authorization pair would
 * measure H2's insert rate. In the server that write is off the request path; the queue hand-off,
 * which is on it, is still measured.
 */
final class DiscardingAuditStore {
  private DiscardingAuditStore() {}

  /** An AccessStore whose appendEvents counts and drops; AuditLog calls nothing else. */
  static AccessStore create(LongAdder written) {
    return (AccessStore)
        Proxy.newProxyInstance(
            AccessStore.class.getClassLoader(),
            new Class<?>[] {AccessStore.class},
            (proxy, method, args) ->
                switch (method.getName()) {
                  case "appendEvents" -> {
                    written.add(((List<?>) args[0]).size());
                    yield null;
                  }
                  case "hashCode" -> System.identityHashCode(proxy);
                  case "equals" -> proxy == args[0];
                  case "toString" -> "DiscardingAuditStore";
                  default -> throw new UnsupportedOperationException(method.getName());
                });
  }
}
