package dev.sluice.vending.azure;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.core.http.HttpPipelinePosition;
import com.azure.core.http.policy.HttpPipelinePolicy;
import com.azure.storage.file.datalake.DataLakeServiceClientBuilder;
import com.azure.storage.file.datalake.models.UserDelegationKey;
import dev.sluice.testing.AzuriteBed;
import dev.sluice.testing.NeedsTestBeds;
import java.time.Clock;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * User delegation keys from Azurite are reused while a SAS signed with one cannot outlive it, and
 * fetched again (once) when it could.
 */
@NeedsTestBeds
class DelegationKeysTest {
  @Test
  void aKeyIsReusedUntilASasCouldOutliveIt() {
    AzuriteBed bed = AzuriteBed.bed().installAsDefault();
    AtomicInteger requests = new AtomicInteger();
    HttpPipelinePolicy counting =
        new HttpPipelinePolicy() {
          @Override
          public reactor.core.publisher.Mono<com.azure.core.http.HttpResponse> process(
              com.azure.core.http.HttpPipelineCallContext context,
              com.azure.core.http.HttpPipelineNextPolicy next) {
            requests.incrementAndGet();
            return next.process();
          }

          @Override
          public com.azure.core.http.HttpResponse processSync(
              com.azure.core.http.HttpPipelineCallContext context,
              com.azure.core.http.HttpPipelineNextSyncPolicy next) {
            requests.incrementAndGet();
            return next.processSync();
          }

          @Override
          public HttpPipelinePosition getPipelinePosition() {
            return HttpPipelinePosition.PER_CALL;
          }
        };
    DelegationKeys keys =
        new DelegationKeys(
            host ->
                new DataLakeServiceClientBuilder()
                    .endpoint(bed.blobEndpoint())
                    .credential(bed.tokenCredential())
                    .httpClient(bed.httpClient())
                    .addPolicy(counting)
                    .buildClient(),
            Clock.systemUTC());
    OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC);
    UserDelegationKey first = keys.key(AzuriteBed.DFS_HOST, now.plusMinutes(15));
    for (int i = 0; i < 20; i++) {
      assertThat(keys.key(AzuriteBed.DFS_HOST, now.plusMinutes(15 + i))).isSameAs(first);
    }
    assertThat(requests.get()).as("one key for 21 vends").isEqualTo(1);
    assertThat(first.getSignedExpiry())
        .isAfter(now.plus(DelegationKeys.KEY_LIFETIME).minusMinutes(1));
    // A SAS that would outlive the key (minus the margin) needs a new, longer key.
    OffsetDateTime late = first.getSignedExpiry().minus(Duration.ofMinutes(1));
    UserDelegationKey second = keys.key(AzuriteBed.DFS_HOST, late);
    assertThat(second).isNotSameAs(first);
    assertThat(second.getSignedExpiry()).isAfter(late.plus(DelegationKeys.MARGIN));
    assertThat(requests.get()).isEqualTo(2);
  }
}
