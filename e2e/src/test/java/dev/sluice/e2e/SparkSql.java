package dev.sluice.e2e;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/** Small helpers shared by the Spark end-to-end tests: SQL results as plain lists, error chains as text. */
final class SparkSql {
  private SparkSql() {}

  static List<List<Object>> rows(SparkSession spark, String query) {
    List<List<Object>> rows = new ArrayList<>();
    for (Row r : spark.sql(query).collectAsList()) {
      List<Object> values = new ArrayList<>(r.size());
      for (int i = 0; i < r.size(); i++) {
        values.add(r.get(i));
      }
      rows.add(values);
    }
    return rows;
  }

  static List<Object> column(List<List<Object>> rows, int index) {
    return rows.stream().map(r -> r.get(index)).toList();
  }

  static List<Object> row(Object... values) {
    return Arrays.asList(values);
  }

  /** Every message in a cause chain, one per line. */
  static String messages(Throwable e) {
    return Stream.iterate(e, t -> t != null, Throwable::getCause)
        .map(t -> t.getClass().getName() + ": " + t.getMessage())
        .collect(Collectors.joining("\n"));
  }
}
