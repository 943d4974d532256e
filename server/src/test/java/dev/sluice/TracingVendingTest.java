package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testing.Admin;
import dev.sluice.testing.NeedsTestBeds;
import dev.sluice.testing.RgwVendingBed;
import dev.sluice.tracing.Tracing;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.data.SpanData;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * A vended table load on the Ceph RGW bed, traced: the STS call that made the credential is a
 * client span of the load's trace, made on the provider-call thread, a child of the load's span.
 */
@NeedsTestBeds
class TracingVendingTest {
  @Test
  void theStsCallOfAVendedLoadIsAChildSpanOfTheLoad() throws Exception {
    InMemorySpanExporter exporter = InMemorySpanExporter.create();
    try (RgwVendingBed bed =
        RgwVendingBed.start("traced", "", null, Tracing.exportingTo(exporter, "test"))) {
      bed.createCatalog("traced", "lake", "lake", Map.of());
      bed.createNamespace("traced", "ns");
      bed.createTable("traced", "ns", "t");
      // A reader's read-only credential: the create vended (and cached) root's read-write one.
      String[] reader = bed.admin().principal("traced-reader", "traced_readers");
      bed.admin().catalogRole("traced", "traced_table_readers", "traced_readers");
      bed.admin()
          .grant(
              "traced",
              "traced_table_readers",
              Admin.grantJson("catalog", null, null, "TABLE_READ_DATA"));
      String token = bed.server().token(reader[0], reader[1]);
      String trace = UUID.randomUUID().toString().replace("-", "");
      HttpResponse<String> load =
          bed.server()
              .sendAs(
                  token,
                  "GET",
                  "/api/catalog/v1/traced/namespaces/ns/tables/t",
                  null,
                  Map.of(
                      RgwVendingBed.DELEGATION,
                      "vended-credentials",
                      "traceparent",
                      "00-" + trace + "-00f067aa0ba902b7-01"));
      assertThat(load.statusCode()).as(load.body()).isEqualTo(200);
      assertThat(load.body()).contains("s3.session-token");
      long deadline = System.nanoTime() + 5_000_000_000L;
      List<SpanData> spans;
      do {
        Thread.sleep(20);
        spans =
            exporter.getFinishedSpanItems().stream()
                .filter(s -> s.getTraceId().equals(trace))
                .toList();
      } while (spans.stream().noneMatch(s -> s.getKind() == SpanKind.SERVER)
          && System.nanoTime() < deadline);
      List<SpanData> found = spans;
      SpanData server =
          found.stream().filter(s -> s.getKind() == SpanKind.SERVER).findFirst().orElseThrow();
      SpanData vend =
          found.stream()
              .filter(s -> s.getName().equals("vend S3"))
              .findFirst()
              .orElseThrow(() -> new AssertionError("no vend span in " + found));
      assertThat(vend.getKind()).isEqualTo(SpanKind.CLIENT);
      assertThat(vend.getParentSpanId()).isEqualTo(server.getSpanId());
      assertThat(vend.getAttributes().get(AttributeKey.stringKey("sluice.catalog")))
          .isEqualTo("traced");
      assertThat(vend.getEndEpochNanos()).isLessThanOrEqualTo(server.getEndEpochNanos());
    }
  }
}
