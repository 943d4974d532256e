package dev.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.StandardBackends;
import dev.sluice.vending.StorageTimeouts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code storage.providerTimeouts}, {@code storage.providerWait} and {@code
 * storage.catalogIoTimeouts}: today's values by default, bound from YAML into the {@link
 * StorageTimeouts} the storage clients are opened with, and bad values refused naming the key and
 * the value.
 */
class StorageTimeoutsConfigTest {
  @TempDir Path dir;

  private ServerConfig load(String yaml) throws Exception {
    Path file = Files.writeString(dir.resolve("c.yaml"), yaml);
    return ServerConfig.load(
        file,
        ServerConfig.Overrides.NONE,
        Map.<String, String>of()::get,
        StandardBackends.create());
  }

  @Test
  void theDefaultsAreTodaysValues() throws Exception {
    StorageTimeouts timeouts = load("").storage().timeouts();
    assertThat(timeouts).isEqualTo(StorageTimeouts.DEFAULT);
    assertThat(timeouts.provider().attempt()).isEqualTo(Duration.ofSeconds(3));
    assertThat(timeouts.provider().call()).isEqualTo(Duration.ofSeconds(6));
    assertThat(timeouts.provider().loadWait()).isEqualTo(Duration.ofSeconds(7));
    assertThat(timeouts.catalogIo().attempt()).isEqualTo(Duration.ofSeconds(5));
    assertThat(timeouts.catalogIo().call()).isEqualTo(Duration.ofSeconds(10));
    assertThat(timeouts.catalogIo().maxAttempts()).isEqualTo(3);
    assertThat(load("storage:\n  providerTimeouts:\n  catalogIoTimeouts: ~\n").storage().timeouts())
        .as("empty sections")
        .isEqualTo(StorageTimeouts.DEFAULT);
  }

  @Test
  void setValuesReachTheTimeoutsTheClientsAreOpenedWith() throws Exception {
    StorageTimeouts timeouts =
        load("storage:\n"
                + "  providerTimeouts: { attempt: PT0.5S, call: PT2S }\n"
                + "  catalogIoTimeouts: { attempt: PT1S, call: PT4S, maxAttempts: \"5\" }\n")
            .storage()
            .timeouts();
    assertThat(timeouts.provider())
        .isEqualTo(
            new StorageTimeouts.Provider(
                Duration.ofMillis(500), Duration.ofSeconds(2), Duration.ofSeconds(3)));
    assertThat(timeouts.catalogIo())
        .isEqualTo(new StorageTimeouts.CatalogIo(Duration.ofSeconds(1), Duration.ofSeconds(4), 5));
  }

  @Test
  void theProviderWaitFollowsTheCallUnlessSet() throws Exception {
    ServerConfig longer = load("storage:\n  providerTimeouts: { attempt: PT10S, call: PT20S }\n");
    assertThat(longer.storage().providerWait()).as("call + 1 s").isEqualTo(Duration.ofSeconds(21));
    assertThat(longer.storage().timeouts().provider().loadWait()).isEqualTo(Duration.ofSeconds(21));
    ServerConfig set =
        load(
            "storage:\n  providerWait: PT4S\n  providerTimeouts: { attempt: PT10S, call: PT20S }\n");
    assertThat(set.storage().providerWait()).as("set: as set").isEqualTo(Duration.ofSeconds(4));
    assertThat(set.storage().timeouts().provider().loadWait()).isEqualTo(Duration.ofSeconds(4));
    assertThat(set.storage().timeouts().provider().call()).isEqualTo(Duration.ofSeconds(20));
  }

  @Test
  void badValuesAreRefusedNamingTheKeyAndTheValue() {
    Map<String, String> bad = new LinkedHashMap<>();
    bad.put(
        "providerTimeouts: { attempt: PT0.05S }",
        "storage.providerTimeouts.attempt must be between PT0.1S and PT1M, got PT0.05S");
    bad.put(
        "providerTimeouts: { attempt: PT2M, call: PT2M }",
        "storage.providerTimeouts.attempt must be between PT0.1S and PT1M, got PT2M");
    bad.put(
        "providerTimeouts: { call: PT61S }",
        "storage.providerTimeouts.call must be between PT0.1S and PT1M, got PT1M1S");
    bad.put(
        "providerTimeouts: { call: PT2S }",
        "storage.providerTimeouts.call must be at least storage.providerTimeouts.attempt (PT3S),"
            + " got PT2S");
    bad.put(
        "providerTimeouts: { attempt: PT10S }",
        "storage.providerTimeouts.call must be at least storage.providerTimeouts.attempt (PT10S),"
            + " got PT6S");
    bad.put(
        "providerTimeouts: { attempt: -PT1S }",
        "storage.providerTimeouts.attempt must be between PT0.1S and PT1M, got PT-1S");
    bad.put(
        "providerTimeouts: { attempt: 3s }",
        "storage.providerTimeouts.attempt must be an ISO-8601 duration such as PT30M, got: 3s");
    bad.put(
        "providerTimeouts: { zzTypo: PT1S }",
        "Unknown config key: storage.providerTimeouts.zzTypo (known: [attempt, call])");
    bad.put(
        "catalogIoTimeouts: { attempt: PT0S }",
        "storage.catalogIoTimeouts.attempt must be between PT0.1S and PT5M, got PT0S");
    bad.put(
        "catalogIoTimeouts: { call: PT6M }",
        "storage.catalogIoTimeouts.call must be between PT0.1S and PT5M, got PT6M");
    bad.put(
        "catalogIoTimeouts: { attempt: PT30S, call: PT20S }",
        "storage.catalogIoTimeouts.call must be at least storage.catalogIoTimeouts.attempt (PT30S),"
            + " got PT20S");
    bad.put(
        "catalogIoTimeouts: { maxAttempts: 0 }",
        "storage.catalogIoTimeouts.maxAttempts must be between 1 and 10, got 0");
    bad.put(
        "catalogIoTimeouts: { maxAttempts: 11 }",
        "storage.catalogIoTimeouts.maxAttempts must be between 1 and 10, got 11");
    bad.put(
        "catalogIoTimeouts: { maxAttempts: 2.5 }",
        "storage.catalogIoTimeouts.maxAttempts must be an integer, got: 2.5");
    bad.forEach(
        (yaml, message) ->
            assertThatThrownBy(() -> load("storage:\n  " + yaml + "\n"))
                .as(yaml)
                .isInstanceOf(ConfigException.class)
                .hasMessage(message));
  }
}
