package dev.sluice.bench.micro;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.MathContext;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Turns JMH's JSON result ({@code -rf json}) into Markdown: each pair's candidate ÷ baseline time
 * per operation, then every score. Usage: {@code MicroReport <result.json> <report.md> [title]}. A
 * pair appears only when both of its benchmarks ran (a regexp may select a subset).
 */
public final class MicroReport {
  /** A baseline and the variant reported against it, as {@code <pair>_<variant>} method names. */
  record Pair(String title, String baseline, String candidate) {}

  static final List<Pair> PAIRS =
      List.of(
          new Pair(
              "Authorization decision: warm cache vs after invalidate()",
              "authorize_cold",
              "authorize_warm"),
          new Pair(
              "Session policy: read-write build vs Jackson writing the finished policy",
              "sessionPolicy_jacksonOnly",
              "sessionPolicy_readWrite"),
          new Pair(
              "Session policy: read-only vs read-write build",
              "sessionPolicy_readWrite",
              "sessionPolicy_read"),
          new Pair(
              "Credential vending: cache hit vs miss (stub STS, no network)",
              "vend_miss",
              "vend_cached"),
          new Pair(
              "One vend without the cache: R2 mint (local JWT) vs S3 STS vend (stub STS, no network)",
              "mint_s3Sts",
              "mint_r2"),
          new Pair(
              "loadTable body: LoadTableBody (cached metadata) vs Iceberg's serializer",
              "serializeLoadTable_iceberg",
              "serializeLoadTable_cached"),
          new Pair(
              "Token verification: memoized vs first sight",
              "verifyToken_fresh",
              "verifyToken_cached"),
          new Pair(
              "Client secret check: verified-secret cache hit vs PBKDF2",
              "verifySecret_cold",
              "verifySecret_cached"),
          new Pair(
              "client_credentials token request (H2 read, check, HS256 token): cached secret vs"
                  + " PBKDF2",
              "tokenGrant_cold",
              "tokenGrant_cached"),
          new Pair(
              "S3 remote signing: Sluice's signer (parse + sign) vs the SDK's bare"
                  + " AwsV4HttpSigner",
              "sign_sdk",
              "sign_sluice"),
          new Pair(
              "S3 remote signing: Sluice's sign alone (no parse) vs the SDK's bare signer",
              "sign_sdk",
              "sign_sluiceSignOnly"),
          new Pair(
              "S3 remote signing: Sluice's parse alone (S3RequestParser) vs the SDK's bare signer",
              "sign_sdk",
              "sign_sluiceParseOnly"));

  /** One JMH result row. */
  record Row(String method, String params, double score, double error, String unit) {
    String text() {
      return num(score)
          + (Double.isNaN(error) ? "" : " ± " + num(error))
          + " "
          + unit.replace("us/", "µs/");
    }
  }

  private MicroReport() {}

  public static void main(String[] args) throws IOException {
    if (args.length < 2) {
      System.err.println("usage: MicroReport <result.json> <report.md> [title]");
      System.exit(2);
    }
    JsonNode results = new ObjectMapper().readTree(Path.of(args[0]).toFile());
    String title = args.length > 2 ? args[2] : Path.of(args[0]).getFileName().toString();
    String markdown = render(title, results);
    Files.writeString(Path.of(args[1]), markdown);
    System.out.print(markdown);
  }

  static String render(String title, JsonNode results) {
    List<Row> rows = new ArrayList<>();
    results.forEach(r -> rows.add(row(r)));
    StringBuilder md = new StringBuilder();
    md.append("# Sluice micro-benchmarks (JMH): ").append(title).append("\n\n");
    if (!results.isEmpty()) {
      md.append(settings(results.get(0))).append("\n\n");
    }
    md.append(
            "Each pair ran in the same JMH run. **ratio** = candidate ÷ baseline time per operation (below 1: ")
        .append(
            "the candidate is faster); **speed-up** = baseline ÷ candidate. ± is JMH's 99.9 % confidence ")
        .append("half-width (none with a single iteration); the ratio's is the two combined.\n\n");
    md.append(
        "| pair | params | baseline | candidate | ratio | speed-up |\n|---|---|---|---|---|---|\n");
    for (Pair pair : PAIRS) {
      for (Row base : rows) {
        if (!base.method().equals(pair.baseline())) {
          continue;
        }
        find(rows, pair.candidate(), base.params())
            .ifPresent(cand -> md.append(line(pair, base, cand)));
      }
    }
    md.append("\n## All results\n\n| benchmark | params | time per operation |\n|---|---|---|\n");
    for (Row r : rows) {
      md.append("| ")
          .append(r.method())
          .append(" | ")
          .append(r.params())
          .append(" | ")
          .append(r.text())
          .append(" |\n");
    }
    return md.toString();
  }

  private static String line(Pair pair, Row base, Row cand) {
    double ratio = cand.score() / base.score();
    double relErr = Math.hypot(cand.error() / cand.score(), base.error() / base.score());
    String ratioText = num(ratio) + (Double.isNaN(relErr) ? "" : " ± " + num(ratio * relErr));
    return "| "
        + pair.title()
        + " | "
        + base.params()
        + " | "
        + pair.baseline()
        + ": "
        + base.text()
        + " | "
        + pair.candidate()
        + ": "
        + cand.text()
        + " | "
        + ratioText
        + " | "
        + num(1 / ratio)
        + "× |\n";
  }

  private static Optional<Row> find(List<Row> rows, String method, String params) {
    return rows.stream()
        .filter(r -> r.method().equals(method) && r.params().equals(params))
        .findFirst();
  }

  private static Row row(JsonNode r) {
    String benchmark = r.path("benchmark").asText();
    StringBuilder params = new StringBuilder();
    for (Iterator<Map.Entry<String, JsonNode>> it = r.path("params").fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> p = it.next();
      params
          .append(params.length() == 0 ? "" : ", ")
          .append(p.getKey())
          .append('=')
          .append(p.getValue().asText());
    }
    JsonNode metric = r.path("primaryMetric");
    double error =
        metric.path("scoreError").isNumber() ? metric.path("scoreError").asDouble() : Double.NaN;
    return new Row(
        benchmark.substring(benchmark.lastIndexOf('.') + 1),
        params.toString(),
        metric.path("score").asDouble(),
        error,
        metric.path("scoreUnit").asText());
  }

  private static String settings(JsonNode first) {
    return String.format(
        "%s; JMH %s, %s %s; %d CPUs. Forks %s, threads %s, warm-up %s × %s, measurement %s × %s, "
            + "JVM options `%s`.",
        LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm")),
        first.path("jmhVersion").asText(),
        first.path("vmName").asText(),
        first.path("vmVersion").asText(),
        Runtime.getRuntime().availableProcessors(),
        first.path("forks").asText(),
        first.path("threads").asText(),
        first.path("warmupIterations").asText(),
        first.path("warmupTime").asText(),
        first.path("measurementIterations").asText(),
        first.path("measurementTime").asText(),
        String.join(" ", texts(first.path("jvmArgs"))));
  }

  private static List<String> texts(JsonNode array) {
    List<String> out = new ArrayList<>();
    array.forEach(n -> out.add(n.asText()));
    return out;
  }

  /** Three significant digits, no exponent. */
  static String num(double v) {
    if (Double.isNaN(v) || Double.isInfinite(v)) {
      return "n/a";
    }
    return new BigDecimal(v).round(new MathContext(3)).stripTrailingZeros().toPlainString();
  }
}
