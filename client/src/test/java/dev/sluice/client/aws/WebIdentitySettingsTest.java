package dev.sluice.client.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class WebIdentitySettingsTest {
  private static WebIdentitySettings.Builder valid() {
    return WebIdentitySettings.builder()
        .roleArn("arn:aws:iam::123456789012:role/r")
        .webIdentityTokenFile(Path.of("/var/run/token"));
  }

  @Test
  void defaults() {
    WebIdentitySettings s = valid().build();
    assertThat(s.maxAttempts()).isEqualTo(5);
    assertThat(s.minTtl()).isEqualTo(Duration.ofSeconds(300));
    assertThat(s.refreshJitter()).isEqualTo(Duration.ofSeconds(60));
    assertThat(s.backoffBase()).isEqualTo(Duration.ofSeconds(1));
    assertThat(s.sessionName()).isEqualTo("sluice-client");
    assertThat(s.region()).isNull();
    assertThat(s.stsEndpoint()).isNull();
  }

  @Test
  void minTtlIsFlooredTo120Seconds() {
    assertThat(valid().minTtlSeconds(0).build().minTtl()).isEqualTo(Duration.ofSeconds(120));
    assertThat(valid().minTtlSeconds(119).build().minTtl()).isEqualTo(Duration.ofSeconds(120));
    assertThat(valid().minTtlSeconds(121).build().minTtl()).isEqualTo(Duration.ofSeconds(121));
  }

  @Test
  void badValuesAreNamedWithTheValue() {
    assertThatThrownBy(() -> valid().roleArn("my-role").build())
        .hasMessage("roleArn must be an IAM role ARN (arn:...), got: my-role");
    assertThatThrownBy(() -> valid().webIdentityTokenFile(null).build())
        .hasMessageStartingWith("webIdentityTokenFile");
    assertThatThrownBy(() -> valid().sessionName("has space").build())
        .hasMessageStartingWith("sessionName")
        .hasMessageEndingWith("got: has space");
    assertThatThrownBy(() -> valid().maxAttempts(0).build())
        .hasMessage("maxAttempts must be 1 to 20, got: 0");
    assertThatThrownBy(() -> valid().maxAttempts(21).build())
        .hasMessage("maxAttempts must be 1 to 20, got: 21");
    assertThatThrownBy(() -> valid().minTtlSeconds(-1).build())
        .hasMessage("minTtlSeconds must be >= 0, got: -1");
    assertThatThrownBy(() -> valid().refreshJitterSeconds(-5).build())
        .hasMessage("refreshJitterSeconds must be 0 to 3600, got: -5");
    assertThatThrownBy(() -> valid().refreshJitterSeconds(3601).build())
        .hasMessage("refreshJitterSeconds must be 0 to 3600, got: 3601");
    assertThatThrownBy(() -> valid().backoffBase(Duration.ZERO).build())
        .hasMessageStartingWith("backoffBase");
    assertThatThrownBy(() -> valid().stsEndpoint(URI.create("sts.example.com")).build())
        .hasMessage("stsEndpoint must be an http(s) URL with a host, got: sts.example.com");
  }
}
