package dev.sluice.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import dev.sluice.store.SigningKey;
import dev.sluice.store.Store;
import java.lang.reflect.Proxy;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Date;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.iceberg.exceptions.NotAuthorizedException;
import org.junit.jupiter.api.Test;

/** Tokens naming an unknown key id cost at most one read of the keys per interval. */
class TokenServiceUnknownKidTest {
  private final AtomicLong nowMs = new AtomicLong(1_700_000_000_000L);
  private final Clock clock =
      new Clock() {
        @Override
        public ZoneOffset getZone() {
          return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
          return this;
        }

        @Override
        public Instant instant() {
          return Instant.ofEpochMilli(nowMs.get());
        }
      };

  /**
   * The signing keys as the shared database holds them (newest first), and how often they are read.
   */
  private final List<SigningKey> database = new CopyOnWriteArrayList<>();

  private final AtomicInteger reads = new AtomicInteger();
  private final Store store =
      (Store)
          Proxy.newProxyInstance(
              Store.class.getClassLoader(),
              new Class<?>[] {Store.class},
              (proxy, method, args) ->
                  switch (method.getName()) {
                    case "signingKeys" -> {
                      reads.incrementAndGet();
                      yield List.copyOf(database);
                    }
                    case "ensureSigningKey" -> {
                      database.add(0, (SigningKey) args[0]);
                      yield List.copyOf(database);
                    }
                    case "deleteSigningKey" -> database.removeIf(k -> k.kid().equals(args[0]));
                    default -> throw new UnsupportedOperationException(method.getName());
                  });

  private static SigningKey key(String kid) {
    byte[] material = new byte[32];
    new java.security.SecureRandom().nextBytes(material);
    return new SigningKey(kid, Base64.getEncoder().encodeToString(material), 0);
  }

  private String signedWith(SigningKey key) throws Exception {
    JWTClaimsSet claims =
        new JWTClaimsSet.Builder()
            .issuer(TokenService.ISSUER)
            .subject("root")
            .claim("cv", 0L)
            .expirationTime(new Date(nowMs.get() + 60_000))
            .build();
    SignedJWT jwt =
        new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.HS256).keyID(key.kid()).build(), claims);
    jwt.sign(new MACSigner(Base64.getDecoder().decode(key.material())));
    return jwt.serialize();
  }

  @Test
  void aFloodOfUnknownKidsReadsTheKeysAtMostOncePerInterval() throws Exception {
    TokenService tokens = new TokenService(store, Duration.ofHours(1), clock);
    tokens.start();
    int afterStart = reads.get();
    List<String> forged = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      forged.add(signedWith(key("k-forged-" + i)));
    }
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Future<?>> calls = new ArrayList<>();
      for (int round = 0; round < 20; round++) {
        for (String token : forged) {
          calls.add(
              pool.submit(
                  () ->
                      assertThatThrownBy(() -> tokens.verify(token))
                          .isInstanceOf(NotAuthorizedException.class)
                          .hasMessageContaining("bad signature")));
        }
      }
      for (Future<?> call : calls) {
        call.get();
      }
    } finally {
      pool.shutdown();
    }
    assertThat(reads.get() - afterStart).as("1000 forged tokens within one interval").isEqualTo(1);
    assertThat(tokens.keyReads()).isEqualTo(reads.get());

    nowMs.addAndGet(TokenService.UNKNOWN_KID_RELOAD_MS - 1);
    assertThatThrownBy(() -> tokens.verify(forged.get(0)))
        .isInstanceOf(NotAuthorizedException.class);
    assertThat(reads.get() - afterStart).isEqualTo(1);
    nowMs.addAndGet(1);
    assertThatThrownBy(() -> tokens.verify(forged.get(1)))
        .isInstanceOf(NotAuthorizedException.class);
    assertThat(reads.get() - afterStart)
        .as("one more read once the interval has passed")
        .isEqualTo(2);
  }

  @Test
  void aKeyRetiredOnAnotherReplicaStopsVerifyingThereWithinTheRefreshInterval() throws Exception {
    TokenService a = new TokenService(store, Duration.ofHours(1), clock);
    a.start();
    TokenService b = new TokenService(store, Duration.ofHours(1), clock);
    b.start();
    String token = a.issue("root", "p-root", "root", List.of(), 0);
    assertThat(b.verify(token).name()).isEqualTo("root");
    String retired = database.get(0).kid();
    a.rotate();
    a.retire(retired);
    assertThatThrownBy(() -> a.verify(token)).isInstanceOf(NotAuthorizedException.class);
    // b still holds the key (and the verified token) until its next read of the keys.
    nowMs.addAndGet(TokenService.REFRESH_MS + 1);
    assertThatThrownBy(() -> b.verify(token))
        .as("on the other replica, once its keys are refreshed")
        .isInstanceOf(NotAuthorizedException.class);
    assertThat(b.verify(a.issue("root", "p-root", "root", List.of(), 0)).name()).isEqualTo("root");
  }

  @Test
  void aKeyAddedByAnotherReplicaIsFoundAtOnceOrWithinTheInterval() throws Exception {
    TokenService tokens = new TokenService(store, Duration.ofHours(1), clock);
    tokens.start();
    SigningKey rotatedElsewhere = key("k-rotated-elsewhere");
    database.add(0, rotatedElsewhere);
    String token = signedWith(rotatedElsewhere);
    assertThat(tokens.verify(token).name()).as("first unknown kid: read at once").isEqualTo("root");

    // An attacker's unknown kid just used the read; a second genuine rotation waits for the
    // interval.
    assertThatThrownBy(() -> tokens.verify(signedWith(key("k-attacker"))))
        .isInstanceOf(NotAuthorizedException.class);
    SigningKey second = key("k-second-rotation");
    database.add(0, second);
    String secondToken = signedWith(second);
    assertThatThrownBy(() -> tokens.verify(secondToken)).isInstanceOf(NotAuthorizedException.class);
    nowMs.addAndGet(TokenService.UNKNOWN_KID_RELOAD_MS);
    assertThat(tokens.verify(secondToken).name()).isEqualTo("root");
  }
}
