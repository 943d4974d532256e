package dev.sluice.e2e;

import static org.apache.spark.sql.functions.callUDF;
import static org.apache.spark.sql.functions.col;

import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.api.java.UDF1;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * A Comet scan made slower than a credential's life: a table of {@value #FILES} one-row files, read
 * natively as raw Parquet with each file its own Spark partition (a file costs as much as a
 * partition holds), then a nap of {@value #NAP_MILLIS} ms per row. With two task slots the files
 * are read two at a time, a nap apart, so the native reads themselves (not only the rows after
 * them) spread over {@code (FILES / 2 - 1) * NAP_MILLIS} ms. Also reads the times the bridge's and
 * RGW's logs give.
 */
final class SlowScan {
  static final int FILES = 8;
  static final long NAP_MILLIS = 2_000;

  private static final Pattern VENDED =
      Pattern.compile(
          "^Sluice vended \\d+ credential\\(s\\) for table (\\S+), expiring at (\\S+),");
  private static final Pattern RGW_TIME = Pattern.compile(" \\[([^\\]]+)\\] \"");
  private static final DateTimeFormatter RGW_FORMAT =
      DateTimeFormatter.ofPattern("dd/MMM/yyyy:HH:mm:ss.SSS Z", Locale.ENGLISH);

  private SlowScan() {}

  /** Creates {@code table} (a catalog.ns.name) with {@value #FILES} files of one row each. */
  static void fill(SparkSession spark, String table) {
    spark.sql(
        "CREATE TABLE " + table + " (id BIGINT NOT NULL, item STRING, qty INT) USING iceberg");
    // As many input partitions as rows, no shuffle: each write task writes one row, one file.
    spark.sql(
        "INSERT INTO "
            + table
            + " SELECT id, concat('e', id), CAST(id AS INT) FROM range(0, "
            + FILES
            + ", 1, "
            + FILES
            + ")");
    spark.udf().register("nap", (UDF1<Long, Long>) SlowScan::nap, DataTypes.LongType);
  }

  private static long nap(long id) throws InterruptedException {
    Thread.sleep(NAP_MILLIS);
    return id;
  }

  /** The slow scan of the files in {@code dataDir}; run it {@link #withConf}. */
  static Dataset<Row> scan(SparkSession spark, StructType schema, String dataDir) {
    return spark
        .read()
        .schema(schema)
        .parquet(dataDir)
        .select(callUDF("nap", col("id")).as("id"), col("item"), col("qty"));
  }

  /** Runs {@code body} with {@code conf} and one file per partition set, then unsets them. */
  static <T> T withConf(SparkSession spark, Map<String, String> conf, Supplier<T> body) {
    Map<String, String> all = new LinkedHashMap<>(conf);
    all.put("spark.sql.files.maxPartitionBytes", "134217728");
    all.put("spark.sql.files.openCostInBytes", "134217728");
    all.forEach(spark.conf()::set);
    try {
      return body.get();
    } finally {
      all.keySet().forEach(spark.conf()::unset);
    }
  }

  /** The distinct expiries of the credentials the bridge got for {@code table}, earliest first. */
  static List<Instant> expiries(List<String> bridgeLines, String table) {
    TreeSet<Instant> expiries = new TreeSet<>();
    for (String line : bridgeLines) {
      Matcher m = VENDED.matcher(line);
      if (m.find() && m.group(1).equals(table)) {
        expiries.add(Instant.parse(m.group(2)));
      }
    }
    return new ArrayList<>(expiries);
  }

  /** When RGW received the earliest of these requests (its access lines). */
  static Instant earliest(List<String> rgwLines) {
    return rgwLines.stream().map(SlowScan::received).min(Instant::compareTo).orElseThrow();
  }

  static Instant latest(List<String> rgwLines) {
    return rgwLines.stream().map(SlowScan::received).max(Instant::compareTo).orElseThrow();
  }

  private static Instant received(String rgwLine) {
    Matcher m = RGW_TIME.matcher(rgwLine);
    if (!m.find()) {
      throw new IllegalArgumentException("no request time in RGW's line: " + rgwLine);
    }
    return ZonedDateTime.parse(m.group(1), RGW_FORMAT).toInstant();
  }
}
