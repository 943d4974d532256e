package dev.sluice.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class TokenThrottleTest {
  private static final long SECOND = 1_000_000_000L;
  private final AtomicLong now = new AtomicLong(1_000 * SECOND);

  private TokenThrottle throttle(
      int clientBurst, int clientPerMinute, int addressBurst, int addressPerMinute) {
    return new TokenThrottle(
        new TokenThrottle.Limits(
            true, clientBurst, clientPerMinute, addressBurst, addressPerMinute, 1000),
        now::get);
  }

  @Test
  void aClientIsThrottledAfterItsBurstOfFailuresAndRecoversAtTheRefillRate() {
    TokenThrottle t = throttle(3, 6, 100, 600); // a failure back every 10 s
    for (int i = 0; i < 3; i++) {
      assertThat(t.check("c", "a")).isEmpty();
      t.failed("c", "a");
    }
    assertThat(t.check("c", "a")).hasValue(10);
    assertThat(t.check("other", "a")).as("other client ids are not affected").isEmpty();
    now.addAndGet(4 * SECOND);
    assertThat(t.check("c", "a")).hasValue(6);
    now.addAndGet(6 * SECOND);
    assertThat(t.check("c", "a")).isEmpty();
    t.failed("c", "a");
    assertThat(t.check("c", "a")).isPresent();
  }

  @Test
  void anAddressIsThrottledWhateverClientIdsItTries() {
    TokenThrottle t = throttle(100, 600, 5, 60);
    for (int i = 0; i < 5; i++) {
      assertThat(t.check("c" + i, "1.2.3.4")).isEmpty();
      t.failed("c" + i, "1.2.3.4");
    }
    assertThat(t.check("fresh", "1.2.3.4")).hasValue(1);
    assertThat(t.check("fresh", "5.6.7.8")).isEmpty();
    assertThat(t.check(null, "1.2.3.4")).as("token exchange checks the address only").isPresent();
  }

  @Test
  void concurrentFailuresOverdrawAndThatDebtIsPaidBack() {
    TokenThrottle t = throttle(2, 60, 100, 600);
    for (int i = 0; i < 10; i++) {
      t.failed("c", "a"); // as if ten guesses passed the check at once
    }
    OptionalLong wait = t.check("c", "a");
    assertThat(wait).as("debt is capped at one burst: -2 tokens, 3 s to get back to 1").hasValue(3);
  }

  @Test
  void successesAreNeverCountedAndADisabledThrottlePassesEverything() {
    TokenThrottle t = throttle(1, 1, 1, 1);
    for (int i = 0; i < 1000; i++) {
      assertThat(t.check("busy", "a")).isEmpty(); // check alone is what a successful request does
    }
    TokenThrottle off =
        new TokenThrottle(new TokenThrottle.Limits(false, 1, 1, 1, 1, 1000), now::get);
    for (int i = 0; i < 10; i++) {
      off.failed("c", "a");
    }
    assertThat(off.check("c", "a")).isEmpty();
  }

  @Test
  void ipv6AddressesAreGroupedByTheirSlash64() throws Exception {
    assertThat(TokenThrottle.addressKey(InetAddress.getByName("2001:db8:1:2:aaaa::1")))
        .isEqualTo(TokenThrottle.addressKey(InetAddress.getByName("2001:db8:1:2:bbbb::7")))
        .isNotEqualTo(TokenThrottle.addressKey(InetAddress.getByName("2001:db8:1:3::1")));
    assertThat(TokenThrottle.addressKey(InetAddress.getByName("10.0.0.1"))).isEqualTo("10.0.0.1");
    assertThat(TokenThrottle.addressKey(InetAddress.getByName("10.0.0.1")))
        .isNotEqualTo(TokenThrottle.addressKey(InetAddress.getByName("10.0.0.2")));
    assertThat(TokenThrottle.addressKey(null)).isEqualTo("<none>");
  }

  @Test
  void limitsAreValidated() {
    assertThatThrownBy(() -> new TokenThrottle.Limits(true, 0, 10, 10, 10, 1000))
        .hasMessageContaining("clientBurst");
    assertThatThrownBy(() -> new TokenThrottle.Limits(true, 10, 10, 10, 0, 1000))
        .hasMessageContaining("addressFailuresPerMinute");
    assertThatThrownBy(() -> new TokenThrottle.Limits(true, 10, 10, 10, 10, 5))
        .hasMessageContaining("maxTrackedKeys");
  }
}
