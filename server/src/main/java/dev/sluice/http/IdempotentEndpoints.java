package dev.sluice.http;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.Map;
import org.apache.iceberg.rest.Endpoint;

/**
 * Where {@code Idempotency-Key} is wired onto the routes: which Iceberg endpoints are mutations
 * that honour it, and how each one's answer is stored and replayed (a table answer through {@link
 * TableReplays}, which vends afresh; any other verbatim). The key handling itself is {@link
 * IdempotentMutations}.
 */
final class IdempotentEndpoints {
  private final IdempotentMutations idempotent;
  private final Map<Endpoint, IdempotentMutations.Answers> mutations;

  IdempotentEndpoints(IdempotentMutations idempotent, TableReplays replays) {
    this.idempotent = requireNonNull(idempotent, "idempotent");
    requireNonNull(replays, "replays");
    IdempotentMutations.Answers verbatim = IdempotentMutations.VERBATIM;
    // The spec's mutations (createView too: the spec omits it, Iceberg 1.11's client sends it).
    this.mutations =
        Map.ofEntries(
            Map.entry(Endpoint.V1_CREATE_NAMESPACE, verbatim),
            Map.entry(Endpoint.V1_UPDATE_NAMESPACE, verbatim),
            Map.entry(Endpoint.V1_DELETE_NAMESPACE, verbatim),
            Map.entry(Endpoint.V1_CREATE_TABLE, replays.create()),
            Map.entry(Endpoint.V1_REGISTER_TABLE, replays.register()),
            Map.entry(Endpoint.V1_UPDATE_TABLE, replays.commit()),
            Map.entry(Endpoint.V1_DELETE_TABLE, verbatim),
            Map.entry(Endpoint.V1_RENAME_TABLE, verbatim),
            Map.entry(Endpoint.V1_COMMIT_TRANSACTION, verbatim),
            Map.entry(Endpoint.V1_CREATE_VIEW, verbatim),
            Map.entry(Endpoint.V1_REGISTER_VIEW, verbatim),
            Map.entry(Endpoint.V1_UPDATE_VIEW, verbatim),
            Map.entry(Endpoint.V1_DELETE_VIEW, verbatim),
            Map.entry(Endpoint.V1_RENAME_VIEW, verbatim));
  }

  /** How long a key is remembered, as {@code /v1/config} advertises it. */
  Duration lifetime() {
    return idempotent.lifetime();
  }

  /**
   * {@code handler} honouring {@code Idempotency-Key} if {@code endpoint} is a mutation; as it is
   * otherwise (reads, and routes not advertised as an endpoint, for which {@code endpoint} is
   * null).
   */
  RouteHandler wrap(Endpoint endpoint, RouteHandler handler) {
    IdempotentMutations.Answers answers = endpoint == null ? null : mutations.get(endpoint);
    return answers == null ? handler : idempotent.wrap(endpoint.toString(), handler, answers);
  }
}
