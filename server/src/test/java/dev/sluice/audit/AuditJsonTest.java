package dev.sluice.audit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.store.AuditEvent;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The actor in the one shape the events API and the audit stream share: named where an engine acted
 * for the principal, absent (not null) where nobody did.
 */
class AuditJsonTest {
  private static final AuditEvent OWN =
      new AuditEvent(7, 1_000, "jane", List.of("analysts"), "loadTable", "lake", "t", true, "q1");

  @Test
  void theEventAndTheStreamFieldsNameTheActor() {
    AuditEvent delegated = OWN.withActor("trino");
    assertThat(AuditJson.event(delegated).actor()).isEqualTo("trino");
    Map<String, Object> fields = AuditJson.fields(delegated);
    assertThat(fields).containsEntry("principal", "jane").containsEntry("actor", "trino");
    // Right after the principal, as the API document lists it.
    assertThat(List.copyOf(fields.keySet()).subList(2, 4)).containsExactly("principal", "actor");
  }

  @Test
  void theCloudEventsDataCarriesTheActor() {
    @SuppressWarnings("unchecked")
    Map<String, Object> data =
        (Map<String, Object>)
            AuditStream.cloudEvent(OWN.withActor("trino"), "urn:test").get("data");
    assertThat(data).containsEntry("actor", "trino").doesNotContainKey("id");
    @SuppressWarnings("unchecked")
    Map<String, Object> own =
        (Map<String, Object>) AuditStream.cloudEvent(OWN, "urn:test").get("data");
    assertThat(own).doesNotContainKey("actor");
  }

  @Test
  void withoutAnActorTheFieldIsAbsent() {
    assertThat(AuditJson.event(OWN).actor()).isNull();
    assertThat(AuditJson.fields(OWN)).doesNotContainKey("actor");
  }
}
