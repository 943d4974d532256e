package dev.sluice.http;

import static java.util.Objects.requireNonNull;

import dev.sluice.store.CommitOutcomeUnknown;
import dev.sluice.store.IdempotencyClaim;
import dev.sluice.store.IdempotencyKeyTaken;
import dev.sluice.store.IdempotencyKeys;
import dev.sluice.store.IdempotencyRecord;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.exceptions.CommitStateUnknownException;
import org.apache.iceberg.rest.responses.ErrorResponse;
import org.apache.iceberg.rest.responses.ErrorResponseParser;
import org.eclipse.jetty.http.HttpFields;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.spi.LoggingEventBuilder;

/**
 * The Iceberg REST {@code Idempotency-Key} on mutations. The first request with a key runs; its
 * store change records the key in the change's own transaction (the request carries its {@link
 * IdempotencyClaim}, and the catalog it resolves writes through {@code Store#claiming}), and its
 * answer (status and body, credentials stripped) is recorded right after. A retry with the same key
 * by the same principal (its identity: {@link dev.sluice.auth.AuthenticatedPrincipal#identity}, so
 * neither a principal created again under the name nor an external identity of that name) for the
 * same request gets that answer again, from the store, on any replica (a table answer vends afresh
 * for the caller: {@link Answers#replay}). Other principals, other requests and malformed keys are
 * refused; keys expire after the advertised lifetime.
 */
final class IdempotentMutations {
  private static final Logger LOG = LoggerFactory.getLogger(IdempotentMutations.class);
  static final String HEADER = "Idempotency-Key";
  static final String REPLAYED = "Idempotent-Replayed";
  private static final Pattern UUID_FORM =
      Pattern.compile(
          "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");
  // Failures a retry may not meet again (access may be granted, a limit may pass): not recorded.
  private static final Set<Integer> TRANSIENT_4XX = Set.of(401, 403, 408, 429);
  private static final int SWEEP_EVERY = 256;

  /** How a route's answer is stored (without credentials) and given again. */
  interface Answers {
    /** The JSON to store for {@code body} (a route's serialized answer). */
    String stored(byte[] body);

    /** The answer to a retry of a request first answered with {@code status} and {@code body}. */
    Reply replay(Exchange x, int status, String body) throws Exception;
  }

  /** Answers stored and given back as they were (no credentials in them). */
  static final Answers VERBATIM =
      new Answers() {
        @Override
        public String stored(byte[] body) {
          return new String(body, StandardCharsets.UTF_8);
        }

        @Override
        public Reply replay(Exchange x, int status, String body) {
          return verbatim(status, body);
        }
      };

  private final IdempotencyKeys keys;
  private final Duration lifetime;
  private final Duration wait;
  private final Clock clock;
  private final AtomicLong recorded = new AtomicLong();

  IdempotentMutations(IdempotencyKeys keys, Duration lifetime, Duration wait, Clock clock) {
    this.keys = requireNonNull(keys, "keys");
    this.lifetime = requireNonNull(lifetime, "lifetime");
    this.wait = requireNonNull(wait, "wait");
    this.clock = requireNonNull(clock, "clock");
  }

  Duration lifetime() {
    return lifetime;
  }

  /** {@code handler} honouring {@code Idempotency-Key} for the mutation named {@code operation}. */
  RouteHandler wrap(String operation, RouteHandler handler, Answers answers) {
    requireNonNull(operation, "operation");
    requireNonNull(handler, "handler");
    requireNonNull(answers, "answers");
    return x -> {
      String header = x.header(HEADER);
      return header == null
          ? handler.handle(x)
          : handle(x, key(header), operation, handler, answers);
    };
  }

  /**
   * Adds a request's {@code Idempotency-Key} ({@code idempotencyKey}, as the client sent it when it
   * is a well-formed key, else {@code "malformed"}) and, for an answer given again, {@code
   * replayed: true} to its access line: what tells an operator that a client retried a mutation and
   * that the retry was not applied twice. Nothing for a request without the header.
   */
  static void accessFields(HttpFields request, Reply reply, LoggingEventBuilder line) {
    String header = request.get(HEADER);
    if (header == null) {
      return;
    }
    String key = header.trim();
    line.addKeyValue("idempotencyKey", UUID_FORM.matcher(key).matches() ? key : "malformed");
    if ("true".equals(reply.headers().get(REPLAYED))) {
      line.addKeyValue("replayed", true);
    }
  }

  /** The spec asks for a UUIDv7 string (36 characters); any UUID in that form is accepted. */
  static String key(String header) {
    String key = header.trim();
    if (!UUID_FORM.matcher(key).matches()) {
      throw new BadRequestException(
          "Invalid %s header: expected a UUID string (36 characters, UUIDv7 recommended)", HEADER);
    }
    return key.toLowerCase(java.util.Locale.ROOT);
  }

  private Reply handle(
      Exchange x, String key, String operation, RouteHandler handler, Answers answers)
      throws Exception {
    String principal = x.principal().identity();
    String catalog = x.path("prefix");
    String hash = RequestFingerprint.of(x, operation);
    long now = clock.millis();
    Optional<IdempotencyRecord> existing = keys.find(key);
    if (existing.isPresent() && existing.get().expiredAt(now)) {
      keys.removeIfExpired(key, now); // expired: the key is new again
      existing = Optional.empty();
    }
    if (existing.isPresent()) {
      return answerFrom(existing.get(), x, principal, catalog, operation, hash, answers);
    }
    IdempotencyClaim claim =
        new IdempotencyClaim(
            key,
            x.principal().name(),
            principal,
            catalog,
            operation,
            hash,
            UUID.randomUUID().toString(),
            now,
            now + lifetime.toMillis());
    x.claims(claim);
    Reply reply;
    try {
      reply = handler.handle(x);
    } catch (IdempotencyKeyTaken taken) {
      // A concurrent request with this key applied its change first; ours was rolled back.
      return answerFrom(
          keys.find(key).orElseThrow(() -> taken), x, principal, catalog, operation, hash, answers);
    } catch (Throwable t) {
      recordFailure(claim, t);
      throw t;
    }
    byte[] body = serialized(reply);
    record(claim, reply.status(), body == null ? null : answers.stored(body));
    return body == null ? reply : new Reply(reply.status(), body, true, reply.headers());
  }

  /**
   * A retry: refused if the key is someone else's or was used for another request; the first
   * attempt's answer once it is recorded (waiting a little for one still running).
   */
  private Reply answerFrom(
      IdempotencyRecord found,
      Exchange x,
      String principal,
      String catalog,
      String operation,
      String hash,
      Answers answers)
      throws Exception {
    if (!found.principalIdentity().equals(principal)) {
      return HttpServer.error(
          422,
          "UnprocessableEntityException",
          HEADER + " " + found.key() + " was used by another principal: use a new key");
    }
    String mismatch =
        !found.catalog().equals(catalog)
            ? "another catalog"
            : !found.operation().equals(operation)
                ? "another operation (" + found.operation() + ")"
                : !found.requestHash().equals(hash) ? "another request path, query or body" : null;
    if (mismatch != null) {
      return HttpServer.error(
          422,
          "UnprocessableEntityException",
          HEADER + " " + found.key() + " was used for " + mismatch + ": use a new key");
    }
    IdempotencyRecord answered = awaitAnswer(found);
    if (!answered.answered()) {
      // Still running (or its server stopped between the change and recording the answer): the
      // client retries the same request, with the same key, after a pause (Iceberg's HTTP client
      // does so on a 503 with Retry-After).
      return HttpServer.error(
              503,
              "ServiceUnavailableException",
              "The first request with "
                  + HEADER
                  + " "
                  + found.key()
                  + " has not finished: retry later with the same key")
          .withHeader("Retry-After", "1");
    }
    return answers.replay(x, answered.status(), answered.body()).withHeader(REPLAYED, "true");
  }

  private IdempotencyRecord awaitAnswer(IdempotencyRecord found) throws InterruptedException {
    long deadline = System.nanoTime() + wait.toNanos();
    IdempotencyRecord current = found;
    while (!current.answered() && System.nanoTime() < deadline) {
      Thread.sleep(25);
      Optional<IdempotencyRecord> again = keys.find(found.key());
      if (again.isEmpty()) {
        return current; // forgotten meanwhile: still no answer to give
      }
      current = again.get();
    }
    return current;
  }

  /**
   * The first attempt failed. A deterministic 4xx is the key's answer (the spec finalizes those); a
   * 5xx or a transient 4xx is not, and the row a change may have written is removed, unless the
   * database may or may not have committed it.
   */
  private void recordFailure(IdempotencyClaim claim, Throwable t) {
    ErrorResponse error = ErrorMapper.withoutStorageFailures(t); // 4xx or not
    try {
      if (error.code() >= 400 && error.code() < 500 && !TRANSIENT_4XX.contains(error.code())) {
        record(claim, error.code(), ErrorResponseParser.toJson(error));
      } else if (!(t instanceof CommitOutcomeUnknown || t instanceof CommitStateUnknownException)) {
        keys.forget(claim);
      }
    } catch (RuntimeException e) {
      t.addSuppressed(e);
    }
  }

  private void record(IdempotencyClaim claim, int status, String body) {
    try {
      if (!keys.answer(claim, status, body)) {
        LOG.debug("{} {} was taken by a concurrent request", HEADER, claim.key());
      }
    } catch (IdempotencyKeyTaken e) {
      LOG.debug("{} {} was taken by a concurrent request", HEADER, claim.key());
    } catch (RuntimeException e) {
      // The change stands; a retry meets the unanswered row (503, retry later) until it expires.
      LOG.warn("Cannot record the answer for {} {}: {}", HEADER, claim.key(), e.toString());
    }
    if (recorded.incrementAndGet() % SWEEP_EVERY == 0) {
      try {
        keys.sweep(clock.millis());
      } catch (RuntimeException e) {
        LOG.warn("Cannot remove expired {}s: {}", HEADER, e.toString());
      }
    }
  }

  private static byte[] serialized(Reply reply) throws Exception {
    Object body = reply.body();
    if (body == null) {
      return null;
    }
    if (body instanceof byte[] bytes) {
      return bytes;
    }
    if (body instanceof ErrorResponse error) {
      return ErrorResponseParser.toJson(error).getBytes(StandardCharsets.UTF_8);
    }
    return (reply.iceberg() ? Json.iceberg() : Json.plain()).writeValueAsBytes(body);
  }

  static Reply verbatim(int status, String body) {
    return new Reply(
        status,
        body == null ? null : body.getBytes(StandardCharsets.UTF_8),
        true,
        java.util.Map.of());
  }
}
