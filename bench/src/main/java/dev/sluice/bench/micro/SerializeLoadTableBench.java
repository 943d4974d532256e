package dev.sluice.bench.micro;

import dev.sluice.http.Json;
import dev.sluice.http.LoadTableBodyAccess;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.apache.iceberg.rest.responses.LoadTableResponse;
import org.apache.iceberg.rest.responses.LoadTableResponseParser;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The body of a loadTable answer (a {@link LoadTableResponse} as bytes) for a table with 1, 50 or
 * 500 snapshots ({@link TableFixture}).
 *
 * <ul>
 *   <li>{@code serializeLoadTable_iceberg} (baseline): Iceberg's {@code
 *       LoadTableResponseParser.toJson}, reached through the server's Iceberg mapper ({@code
 *       Json.iceberg().writeValueAsBytes}, whose RESTSerializers call it): how the server wrote
 *       this body before LoadTableBody.
 *   <li>{@code serializeLoadTable_cached}: Sluice's LoadTableBody with the metadata JSON already
 *       cached for the metadata file's location (every load after the first of a table version):
 *       only the envelope is written, the metadata copied in raw.
 * </ul>
 *
 * Setup checks that both give the same bytes as {@code LoadTableResponseParser.toJson(response)}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class SerializeLoadTableBench {
  @Param({"1", "50", "500"})
  public int snapshots;

  private LoadTableResponse response;
  private LoadTableBodyAccess body;

  @Setup(Level.Trial)
  public void setUp() throws Exception {
    response = TableFixture.loadTableResponse(snapshots);
    body = new LoadTableBodyAccess(64L << 20, Duration.ofMinutes(10)); // as IcebergRoutes makes it
    byte[] parser = LoadTableResponseParser.toJson(response).getBytes(StandardCharsets.UTF_8);
    if (!Arrays.equals(parser, serializeLoadTable_iceberg())
        || !Arrays.equals(parser, serializeLoadTable_cached())) {
      throw new IllegalStateException(
          "The two serializers disagree for " + snapshots + " snapshots");
    }
    System.out.printf("loadTable body with %d snapshots: %,d bytes%n", snapshots, parser.length);
  }

  @Benchmark
  public byte[] serializeLoadTable_iceberg() throws Exception {
    return Json.iceberg().writeValueAsBytes(response);
  }

  @Benchmark
  public byte[] serializeLoadTable_cached() {
    return body.toJson(response);
  }
}
