package dev.sluice.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The main code's packages depend only on packages in their own layer or below ({@link #LAYERS}, as
 * docs/ARCHITECTURE.md draws them), without cycles, and name other Sluice classes through imports,
 * never inline. A dependency is an import, or a {@code dev.sluice} name in code; comments and
 * strings are not code.
 */
class PackageDependenciesTest {
  /** Top to bottom; {@code dev.sluice} itself is the wiring, and depends on anything. */
  static final List<List<String>> LAYERS =
      List.of(
          List.of("dev.sluice"),
          List.of("cli", "http"),
          List.of("management", "operations"),
          List.of("config", "tracing"),
          List.of("federation"),
          List.of("catalog", "authz"),
          List.of("auth"),
          List.of("audit"),
          List.of(
              "vending.verify",
              "vending.azure",
              "vending.file",
              "vending.gcs",
              "vending.r2",
              "vending.s3"),
          List.of("vending"),
          List.of("io"),
          List.of("api", "location", "store", "tls"));

  private static final Path MAIN = Path.of("src/main/java");
  private static final Pattern PACKAGE = Pattern.compile("(?m)^package ([\\w.]+);");
  private static final Pattern IMPORT =
      Pattern.compile("(?m)^import (?:static )?(dev\\.sluice(?:\\.[a-z]\\w*)*)\\.[A-Z]");
  private static final Pattern INLINE =
      Pattern.compile("\\b(dev\\.sluice(?:\\.[a-z]\\w*)*)\\.[A-Z]\\w*");

  private record Source(Path file, String pkg, String code) {}

  @Test
  void dependenciesPointDownwardsOnly() {
    List<String> upwards = new ArrayList<>();
    dependencies()
        .forEach(
            (from, targets) -> {
              for (String to : targets) {
                if (to.startsWith("dev.sluice") && layer(to) < layer(from)) {
                  upwards.add(from + " -> " + to);
                }
              }
            });
    assertThat(upwards).as("dependencies on a higher layer").isEmpty();
  }

  /** The layer of a main package (0 is the top); a package in no layer fails the test. */
  private static int layer(String pkg) {
    String name = pkg.equals("dev.sluice") ? pkg : pkg.substring("dev.sluice.".length());
    for (int i = 0; i < LAYERS.size(); i++) {
      if (LAYERS.get(i).contains(name)) {
        return i;
      }
    }
    throw new AssertionError(
        "Package " + pkg + " is in no layer: add it to LAYERS and docs/ARCHITECTURE.md");
  }

  @Test
  void packagesHaveNoCycles() {
    assertThat(cycles(dependencies())).as("package cycles (each: the packages in it)").isEmpty();
  }

  /** Each main package's dependencies on other dev.sluice packages (other modules' included). */
  private static Map<String, Set<String>> dependencies() {
    Map<String, Set<String>> edges = new TreeMap<>();
    for (Source source : sources()) {
      Set<String> out = edges.computeIfAbsent(source.pkg(), k -> new TreeSet<>());
      Matcher m = IMPORT.matcher(source.code());
      while (m.find()) {
        out.add(m.group(1));
      }
      Matcher inline = INLINE.matcher(withoutImports(source.code()));
      while (inline.find()) {
        out.add(inline.group(1));
      }
      out.remove(source.pkg());
    }
    // The client module's packages (dev.sluice.client.*) are another jar's, below everything.
    edges.values().forEach(targets -> targets.removeIf(t -> t.startsWith("dev.sluice.client")));
    return edges;
  }

  @Test
  void sluiceClassesAreImportedNotNamedInline() {
    List<String> inline = new ArrayList<>();
    for (Source source : sources()) {
      Matcher m = INLINE.matcher(withoutImports(source.code()));
      while (m.find()) {
        inline.add(MAIN.relativize(source.file()) + ": " + m.group());
      }
    }
    assertThat(inline).isEmpty();
  }

  /** Strongly connected components of more than one package (Tarjan's algorithm). */
  static List<Set<String>> cycles(Map<String, Set<String>> edges) {
    List<Set<String>> found = new ArrayList<>();
    Map<String, Integer> index = new HashMap<>();
    Map<String, Integer> low = new HashMap<>();
    Deque<String> stack = new ArrayDeque<>();
    Set<String> onStack = new TreeSet<>();
    int[] next = {0};
    for (String node : edges.keySet()) {
      if (!index.containsKey(node)) {
        connect(node, edges, index, low, stack, onStack, next, found);
      }
    }
    return found;
  }

  private static void connect(
      String v,
      Map<String, Set<String>> edges,
      Map<String, Integer> index,
      Map<String, Integer> low,
      Deque<String> stack,
      Set<String> onStack,
      int[] next,
      List<Set<String>> found) {
    index.put(v, next[0]);
    low.put(v, next[0]);
    next[0]++;
    stack.push(v);
    onStack.add(v);
    for (String w : edges.getOrDefault(v, Set.of())) {
      if (!index.containsKey(w)) {
        connect(w, edges, index, low, stack, onStack, next, found);
        low.put(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.contains(w)) {
        low.put(v, Math.min(low.get(v), index.get(w)));
      }
    }
    if (low.get(v).equals(index.get(v))) {
      Set<String> component = new TreeSet<>();
      String w;
      do {
        w = stack.pop();
        onStack.remove(w);
        component.add(w);
      } while (!w.equals(v));
      if (component.size() > 1) {
        found.add(component);
      }
    }
  }

  private static List<Source> sources() {
    try (Stream<Path> files = Files.walk(MAIN)) {
      List<Source> out = new ArrayList<>();
      for (Path file : files.filter(f -> f.toString().endsWith(".java")).sorted().toList()) {
        String code = code(Files.readString(file));
        Matcher pkg = PACKAGE.matcher(code);
        assertThat(pkg.find()).as("package of %s", file).isTrue();
        out.add(new Source(file, pkg.group(1), code));
      }
      assertThat(out).as("main sources under %s", MAIN.toAbsolutePath()).hasSizeGreaterThan(100);
      return out;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String withoutImports(String code) {
    return code.replaceAll("(?m)^(import|package) .*$", "");
  }

  /** {@code source} with comments, string and text-block contents and char literals blanked. */
  static String code(String source) {
    StringBuilder out = new StringBuilder(source.length());
    int i = 0;
    int n = source.length();
    while (i < n) {
      char c = source.charAt(i);
      if (source.startsWith("//", i)) {
        while (i < n && source.charAt(i) != '\n') {
          i++;
        }
      } else if (source.startsWith("/*", i)) {
        int end = source.indexOf("*/", i + 2);
        i = end < 0 ? n : end + 2;
        out.append(' ');
      } else if (source.startsWith("\"\"\"", i)) {
        int end = source.indexOf("\"\"\"", i + 3);
        i = end < 0 ? n : end + 3;
        out.append("\"\"");
      } else if (c == '"' || c == '\'') {
        i++;
        while (i < n && source.charAt(i) != c) {
          i += source.charAt(i) == '\\' ? 2 : 1;
        }
        i++;
        out.append(c).append(c);
      } else {
        out.append(c);
        i++;
      }
    }
    return out.toString();
  }
}
