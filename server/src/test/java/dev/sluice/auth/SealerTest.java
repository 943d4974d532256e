package dev.sluice.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.store.DatabaseConfig;
import dev.sluice.store.JdbcStore;
import java.time.Clock;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** Sealed values: opened only under their context, with a fresh nonce each, from any thread. */
class SealerTest {
  @Test
  void sealsWithAFreshNonceAndOpensOnlyUnderTheSameContext() throws Exception {
    try (JdbcStore store =
        JdbcStore.open(new DatabaseConfig("jdbc:h2:mem:sealer", null, null, 4, 5000))) {
      TokenService keys = new TokenService(store, Duration.ofHours(1), Clock.systemUTC());
      keys.start();
      Sealer sealer = new Sealer(keys);
      ExecutorService pool = Executors.newFixedThreadPool(4);
      try {
        Set<Future<String>> futures = new HashSet<>();
        for (int i = 0; i < 400; i++) {
          futures.add(pool.submit(() -> sealer.seal("ctx", "value")));
        }
        Set<String> sealed = new HashSet<>();
        for (Future<String> f : futures) {
          String token = f.get();
          sealed.add(token);
          assertThat(sealer.open("ctx", token)).isEqualTo("value");
        }
        assertThat(sealed).as("every seal has its own nonce").hasSize(400);
        String one = sealed.iterator().next();
        assertThatThrownBy(() -> sealer.open("other", one))
            .isInstanceOf(IllegalArgumentException.class);
        // A character in the middle: all its six bits count (the last one's may be padding bits).
        int at = one.length() / 2;
        char c = one.charAt(at);
        String altered = one.substring(0, at) + (c == 'A' ? 'B' : 'A') + one.substring(at + 1);
        assertThatThrownBy(() -> sealer.open("ctx", altered))
            .isInstanceOf(IllegalArgumentException.class);
        // Sealed under the key before a rotation, still opened (the derived keys are per key id).
        keys.rotate();
        assertThat(sealer.open("ctx", one)).isEqualTo("value");
        String after = sealer.seal("ctx", "next");
        assertThat(sealer.open("ctx", after)).isEqualTo("next");
      } finally {
        pool.shutdownNow();
      }
    }
  }
}
