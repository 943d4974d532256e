package dev.sluice.vending;

import static dev.sluice.vending.VendingServiceTest.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.vending.VendingServiceTest.FakeProfile;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Per-catalog clients: kept while the catalog's profile is unchanged, replaced when it changes, and
 * closed (once) a grace period after they are replaced or retired.
 */
class CatalogClientsTest {
  private static final Duration GRACE = Duration.ofMillis(200);

  /** A client that counts how often it was closed; {@code failClose} makes closing throw. */
  record Client(int id, AtomicInteger closes, boolean failClose) {}

  private final List<Client> opened = new CopyOnWriteArrayList<>();
  private volatile boolean failClose;
  private final CatalogClients<Client> clients =
      new CatalogClients<>(
          "test client",
          client -> {
            client.closes().incrementAndGet();
            if (client.failClose()) {
              throw new IllegalStateException("cannot close " + client.id());
            }
          },
          Duration.ofMinutes(5),
          GRACE);

  @AfterEach
  void closeAll() {
    clients.close();
  }

  private Client get(StorageProfile profile) {
    return clients.get(
        profile,
        p -> {
          Client client = new Client(opened.size(), new AtomicInteger(), failClose);
          opened.add(client);
          return client;
        });
  }

  private static FakeProfile profile(String catalog, int version) {
    return new FakeProfile(
        catalog, List.of(VendingServiceTest.ALLOWED), Optional.empty(), version, true);
  }

  @Test
  void anEqualProfileKeepsItsClient() {
    Client first = get(profile("c", 1));
    assertThat(get(profile("c", 1))).isSameAs(first);
    assertThat(opened).hasSize(1);
    assertThat(clients.catalogs()).containsExactly("c");
  }

  @Test
  void aChangedProfileGetsANewClientAndTheOldOneIsClosedAfterTheGrace() throws Exception {
    Client old = get(profile("c", 1));
    Client other = get(profile("d", 1));
    long replaced = System.nanoTime();
    Client current = get(profile("c", 2));
    assertThat(current).isNotSameAs(old);
    assertThat(old.closes().get()).as("still usable during the grace").isZero();
    await("the replaced client to close", () -> old.closes().get() == 1);
    assertThat((System.nanoTime() - replaced) / 1_000_000).isGreaterThanOrEqualTo(190);
    assertThat(current.closes().get()).isZero();
    assertThat(other.closes().get()).as("another catalog's client").isZero();
    assertThat(get(profile("c", 2))).isSameAs(current);
    Thread.sleep(GRACE.toMillis() * 2);
    assertThat(old.closes().get()).as("closed once").isEqualTo(1);
  }

  @Test
  void aClientThatCannotBeOpenedLeavesTheCurrentOneInPlace() throws Exception {
    Client current = get(profile("c", 1));
    assertThatThrownBy(
            () ->
                clients.get(
                    profile("c", 2),
                    p -> {
                      throw new IllegalStateException("no credential source");
                    }))
        .hasMessageContaining("no credential source");
    Thread.sleep(GRACE.toMillis() * 2);
    assertThat(current.closes().get()).as("not retired by a failed replacement").isZero();
    assertThat(get(profile("c", 1))).isSameAs(current);
  }

  @Test
  void aRetiredClientIsClosedAfterTheGraceAndReopenedOnDemand() throws Exception {
    Client first = get(profile("c", 1));
    clients.retire("c");
    assertThat(clients.catalogs()).isEmpty();
    assertThat(first.closes().get()).as("still usable during the grace").isZero();
    await("the retired client to close", () -> first.closes().get() == 1);
    Client again = get(profile("c", 1));
    assertThat(again).isNotSameAs(first);
    assertThat(again.closes().get()).isZero();
  }

  @Test
  void closeClosesEveryClientOnce() throws Exception {
    Client c = get(profile("c", 1));
    Client d = get(profile("d", 1));
    Client retired = get(profile("e", 1));
    clients.retire("e");
    clients.close();
    assertThat(c.closes().get()).isEqualTo(1);
    assertThat(d.closes().get()).isEqualTo(1);
    await("the retired client to close", () -> retired.closes().get() == 1);
    // Clearing the map on close must not schedule a second close after the grace.
    Thread.sleep(GRACE.toMillis() * 3);
    clients.close();
    assertThat(List.of(c, d, retired)).allSatisfy(x -> assertThat(x.closes().get()).isOne());
  }

  @Test
  void aClientThatFailsToCloseDoesNotStopTheOthers() {
    failClose = true;
    Client failing = get(profile("c", 1));
    failClose = false;
    Client fine = get(profile("d", 1));
    clients.close();
    assertThat(failing.closes().get()).isEqualTo(1);
    assertThat(fine.closes().get()).isEqualTo(1);
  }
}
