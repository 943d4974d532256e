package dev.sluice.bench.scenario;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/** The scenarios by name, in the order the default suite runs them. */
public final class Scenarios {
  private static final List<Scenario> ALL =
      List.of(
          new LoadTableHot(),
          new LoadTableNotModified(),
          LoadTableHot.large(),
          LoadTableNotModified.large(),
          new LoadTableSpread(),
          new ListTablesPaged(),
          new CreateTables(),
          new CommitDistinct(),
          new CommitShared(),
          new SignObjects());

  private Scenarios() {}

  public static List<Scenario> all() {
    return ALL;
  }

  /** {@code "all"} or a comma-separated list of names. */
  public static List<Scenario> select(String names) {
    if (names.equals("all")) {
      return ALL;
    }
    Map<String, Scenario> byName =
        ALL.stream().collect(Collectors.toMap(Scenario::name, Function.identity()));
    List<Scenario> chosen = new ArrayList<>();
    for (String name : names.split(",")) {
      Scenario s = byName.get(name.trim());
      if (s == null) {
        throw new IllegalArgumentException(
            "Unknown scenario " + name + "; known: " + byName.keySet());
      }
      chosen.add(s);
    }
    return chosen;
  }
}
