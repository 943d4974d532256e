package dev.sluice.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * docs/ARCHITECTURE.md stays true and readable: its tables have short cells, every class it names
 * exists where it says, its packages table lists exactly the packages of {@link
 * PackageDependenciesTest#LAYERS}, and its layer sentence is those layers in order.
 *
 * <p><b>What counts as a class name.</b> Only text in backticks, outside fenced code blocks (a span
 * must stay on one line). A span is a class name when it has one of the forms below; any other span
 * (a lower-case word, a path with a file extension, a config key, a header, SQL, a constant in
 * capitals) is prose and not checked. {@code Name} is UpperCamel: an upper-case letter, then
 * letters and digits, at least one of them lower-case ({@code WAIT}, {@code S3} and {@code FILE}
 * are not names); a {@code *} at either end makes it a glob, which must match at least one class.
 *
 * <ul>
 *   <li><b>Qualified</b>, {@code pkg/Name} or {@code pkg/sub/Name} (lower-case package segments):
 *       the class {@code dev.sluice.pkg.sub.Name}, whose source file {@code
 *       dev/sluice/pkg/sub/Name.java} must be in the server module's sources (main, test or test
 *       fixtures), or, for {@code client/…}, in the client module's.
 *   <li><b>Java name</b>, {@code dev.sluice.pkg.Name}: the same, spelt with dots.
 *   <li><b>Elided path</b>, {@code dir/.../sub/Name} ({@code
 *       server/src/test/.../store/StoreContract}, {@code e2e/.../TrinoEndToEndTest}): a source file
 *       under {@code dir} (from the repository's root) whose path ends in {@code sub/Name.java}; a
 *       lower-case last segment ({@code e2e/.../durability}) is a directory of source files there.
 *   <li><b>Bare</b>, {@code Name}: inside a package's part of the doc (its row of the packages
 *       table, or its section, a heading that is just {@code `pkg`}, up to the next heading) a type
 *       declared in that package's main sources (top-level or nested); anywhere else a type
 *       declared in any source of the project (every module, main and test), or one of {@link
 *       #FOREIGN}.
 * </ul>
 *
 * Each form may go on with members, {@code .member} ({@code Foo.bar}, {@code Foo.Nested}: the name
 * is still class {@code Foo}, and each member must occur as an identifier in the code of a file
 * declaring it), and end with a call's arguments {@code (…)} or type arguments {@code <…>}, which
 * are not checked.
 */
class ArchitectureDocTest {
  private static final Path DOC = Path.of("..", "docs", "ARCHITECTURE.md");

  /** The repository's root, seen from the server module's directory (where tests run). */
  private static final Path ROOT = Path.of("..");

  /** Every module of the project; each has its sources in {@code src/<set>/java}. */
  private static final List<String> MODULES =
      List.of("server", "client", "e2e", "e2e-comet", "e2e-flink", "bench");

  /**
   * The longest table cell, in characters. A cell is a phrase beside the other cells of its row,
   * not a paragraph: 400 characters are about five lines of a column as GitHub renders a table of
   * three or four columns, what one takes in at a glance; anything longer belongs in a bullet list
   * or a section, where it wraps at the page's width.
   */
  static final int MAX_CELL = 400;

  /**
   * The names in backticks that are not Sluice's and may appear bare: the libraries' and engines'
   * classes the doc explains Sluice by, a header and the stores' error codes. The only exceptions
   * to the rules above; each must be used in the doc and must not be a Sluice type's name.
   */
  static final Set<String> FOREIGN =
      Set.of(
          // Apache Iceberg (iceberg-core, its REST client, its FileIOs and test suites)
          "CatalogHandlers",
          "CatalogTests",
          "ViewCatalogTests",
          "RESTCatalog",
          "RESTTableCache",
          "LoadTableResponseParser",
          "TableMetadata",
          "ErrorResponse",
          "CommitFailedException",
          "CommitStateUnknownException",
          "ADLSFileIO",
          // Jetty
          "SslContextFactory",
          "SslConnectionFactory",
          "SecureRequestCustomizer",
          // The storage SDKs: AWS, Google (google-auth, google-http-client), Azure
          "AwsV4HttpSigner",
          "DownscopedCredentials",
          "HttpTransportFactory",
          "DataLakeStorageException",
          "BlobStorageException",
          // DataFusion Comet's scan nodes, as a Spark plan shows them
          "CometNativeScan",
          "CometIcebergNativeScan",
          // Not classes: an HTTP header, and error codes the stores answer with (S3 and R2)
          "ETag",
          "AccessDenied",
          "ExpiredToken");

  private static final String NAME = "(?:\\*?[A-Z][A-Za-z0-9]*\\*?)";
  private static final String MEMBERS = "((?:\\.[A-Za-z_][A-Za-z0-9_]*)*)";
  private static final String TAIL = "(?:\\([^()]*\\)|<[^<>]*>)?";
  private static final Pattern QUALIFIED =
      Pattern.compile("((?:[a-z][a-z0-9]*/)+)(" + NAME + ")" + MEMBERS + TAIL);
  private static final Pattern JAVA_NAME =
      Pattern.compile("dev\\.sluice((?:\\.[a-z][a-z0-9]*)*)\\.(" + NAME + ")" + MEMBERS + TAIL);
  private static final Pattern ELIDED =
      Pattern.compile(
          "([a-z][a-z0-9-]*(?:/[a-z][a-z0-9-]*)*)/\\.\\.\\./((?:[a-z][a-z0-9]*/)*)("
              + NAME
              + "|[a-z][a-z0-9-]*)");
  private static final Pattern BARE = Pattern.compile("(" + NAME + ")" + MEMBERS + TAIL);

  private static final Pattern SPAN = Pattern.compile("`([^`\\n]+)`");
  private static final Pattern HEADING = Pattern.compile("(#{1,6}) (.*)");
  private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");
  private static final Pattern DECLARATION =
      Pattern.compile("\\b(?:class|interface|record|enum)\\s+([A-Z]\\w*)");

  /** One span in backticks, with its line and the package whose part of the doc holds it. */
  private record Mention(int line, String text, String pkg) {}

  /** One row of a table: its line, its cells, and whether it is the packages table's. */
  private record Row(int line, List<String> cells, boolean packagesTable) {}

  @Test
  void tableCellsAreShort() {
    List<String> tooLong = new ArrayList<>();
    for (Row row : rows()) {
      for (int i = 0; i < row.cells().size(); i++) {
        int length = row.cells().get(i).trim().length();
        if (length > MAX_CELL) {
          tooLong.add("line " + row.line() + ", cell " + (i + 1) + ": " + length + " characters");
        }
      }
    }
    assertThat(tooLong).as("table cells over %d characters", MAX_CELL).isEmpty();
  }

  @Test
  void everyClassNamedExists() {
    Sources sources = Sources.read();
    List<String> wrong = new ArrayList<>();
    int checked = 0;
    for (Mention m : mentions()) {
      String problem = sources.problem(m);
      if (problem != null) {
        checked++;
        if (!problem.isEmpty()) {
          wrong.add("line " + m.line() + ": `" + m.text() + "`: " + problem);
        }
      }
    }
    assertThat(wrong).as("class names in %s that are wrong", DOC).isEmpty();
    assertThat(checked).as("class names checked").isGreaterThan(300);
  }

  /** A span broken over two lines is code to Markdown, but the checks here would not see it. */
  @Test
  void codeSpansStayOnOneLine() {
    List<String> broken = new ArrayList<>();
    List<String> lines = lines();
    boolean fenced = false;
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i);
      if (line.startsWith("```")) {
        fenced = !fenced;
      } else if (!fenced && line.chars().filter(c -> c == '`').count() % 2 != 0) {
        broken.add("line " + (i + 1) + ": " + line);
      }
    }
    assertThat(broken).as("lines with an odd number of backticks").isEmpty();
  }

  @Test
  void foreignNamesAreUsedAndNotSluicesOwn() {
    Sources sources = Sources.read();
    Set<String> used = new TreeSet<>();
    for (Mention m : mentions()) {
      Matcher bare = BARE.matcher(m.text());
      if (bare.matches()) {
        used.add(bare.group(1));
      }
    }
    assertThat(used).as("names in FOREIGN the doc uses").containsAll(FOREIGN);
    assertThat(FOREIGN).as("names in FOREIGN that are Sluice types").noneMatch(sources::declares);
  }

  @Test
  void packagesTableListsTheLayersPackages() {
    Set<String> layered = new LinkedHashSet<>();
    PackageDependenciesTest.LAYERS.forEach(layered::addAll);
    List<String> listed = new ArrayList<>();
    List<String> wrong = new ArrayList<>();
    Set<String> headings = headingSlugs();
    for (Row row : rows()) {
      if (!row.packagesTable()) {
        continue;
      }
      String pkg = packageNamed(row.cells().get(0));
      if (pkg == null) {
        wrong.add("line " + row.line() + ": no package of LAYERS in " + row.cells().get(0));
        continue;
      }
      listed.add(pkg);
      String anchor = "#" + slug("`" + docName(pkg) + "`");
      if (!headings.contains(anchor.substring(1))) {
        wrong.add("line " + row.line() + ": no section ### `" + docName(pkg) + "`");
      }
      if (row.cells().stream().noneMatch(cell -> cell.contains("](" + anchor + ")"))) {
        wrong.add("line " + row.line() + ": no link to " + anchor);
      }
    }
    assertThat(wrong).isEmpty();
    assertThat(listed).as("packages in the packages table").doesNotHaveDuplicates();
    assertThat(new TreeSet<>(listed))
        .as("packages in the packages table, against PackageDependenciesTest.LAYERS")
        .isEqualTo(new TreeSet<>(layered));
  }

  @Test
  void layerSentenceIsTheLayers() {
    List<String> lines = lines();
    int start = -1;
    for (int i = 0; i < lines.size() && start < 0; i++) {
      if (lines.get(i).startsWith("**Layers**")) {
        start = i;
      }
    }
    assertThat(start).as("a paragraph starting with **Layers**").isNotNegative();
    StringBuilder paragraph = new StringBuilder();
    for (int i = start; i < lines.size() && !lines.get(i).isBlank(); i++) {
      paragraph.append(lines.get(i)).append(' ');
    }
    String sentence = paragraph.substring(paragraph.indexOf(":") + 1);
    sentence = sentence.substring(0, sentence.lastIndexOf('`') + 1);
    List<List<String>> layers = new ArrayList<>();
    for (String part : sentence.split("→")) {
      List<String> layer = new ArrayList<>();
      Matcher span = SPAN.matcher(part);
      while (span.find()) {
        layer.add(span.group(1).replace('/', '.'));
      }
      layers.add(layer);
    }
    assertThat(layers)
        .as("the layer sentence, against PackageDependenciesTest.LAYERS")
        .isEqualTo(PackageDependenciesTest.LAYERS);
  }

  @Test
  void linksLeadSomewhere() {
    Set<String> headings = headingSlugs();
    List<String> broken = new ArrayList<>();
    List<String> lines = lines();
    for (int i = 0; i < lines.size(); i++) {
      Matcher link = LINK.matcher(lines.get(i));
      while (link.find()) {
        String target = link.group(1);
        if (target.startsWith("http://") || target.startsWith("https://")) {
          continue;
        }
        if (target.startsWith("#")) {
          if (!headings.contains(target.substring(1))) {
            broken.add("line " + (i + 1) + ": " + target + " (no such heading)");
          }
        } else {
          String file = target.contains("#") ? target.substring(0, target.indexOf('#')) : target;
          if (!Files.exists(DOC.resolveSibling(file))) {
            broken.add("line " + (i + 1) + ": " + target + " (no such file)");
          }
        }
      }
    }
    assertThat(broken).isEmpty();
  }

  // ---- the doc

  private static List<String> lines() {
    try {
      return Files.readAllLines(DOC);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The doc's names in '/' form ({@code vending/s3}) of a package in LAYERS' form. */
  private static String docName(String pkg) {
    return pkg.equals("dev.sluice") ? pkg : pkg.replace('.', '/');
  }

  /** The package of LAYERS that {@code text} is (just {@code `pkg`}, or a link on it), or null. */
  private static String packageNamed(String text) {
    Matcher m = Pattern.compile("\\[?`([^`]+)`(?:\\]\\(#[^)]*\\))?").matcher(text.trim());
    if (!m.matches()) {
      return null;
    }
    String pkg = m.group(1).equals("dev.sluice") ? "dev.sluice" : m.group(1).replace('/', '.');
    return PackageDependenciesTest.LAYERS.stream().anyMatch(l -> l.contains(pkg)) ? pkg : null;
  }

  /** Every span in backticks outside fenced code, with the package whose part holds it. */
  private static List<Mention> mentions() {
    List<Mention> out = new ArrayList<>();
    List<String> lines = lines();
    Map<Integer, Row> rows = new HashMap<>();
    rows().forEach(row -> rows.put(row.line(), row));
    String section = null;
    boolean fenced = false;
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i);
      if (line.startsWith("```")) {
        fenced = !fenced;
        continue;
      }
      if (fenced) {
        continue;
      }
      Matcher heading = HEADING.matcher(line);
      if (heading.matches()) {
        section = packageNamed(heading.group(2));
      }
      String pkg = section;
      Row row = rows.get(i + 1);
      if (row != null && row.packagesTable()) {
        pkg = packageNamed(row.cells().get(0));
      }
      Matcher span = SPAN.matcher(line);
      while (span.find()) {
        out.add(new Mention(i + 1, span.group(1), pkg));
      }
    }
    return out;
  }

  /**
   * The rows of every table, header included, separator rows left out. The packages table is the
   * one whose header's first cell is {@code package}.
   */
  private static List<Row> rows() {
    List<Row> out = new ArrayList<>();
    List<String> lines = lines();
    boolean packagesTable = false;
    boolean fenced = false;
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i);
      if (line.startsWith("```")) {
        fenced = !fenced;
      }
      if (fenced || !line.startsWith("|")) {
        continue;
      }
      List<String> cells = cells(line);
      boolean header = i == 0 || !lines.get(i - 1).startsWith("|");
      if (header) {
        packagesTable = cells.get(0).trim().equals("package");
      }
      boolean separator = cells.stream().allMatch(c -> c.trim().matches(":?-+:?"));
      if (!separator) {
        out.add(new Row(i + 1, cells, packagesTable && !header));
      }
    }
    return out;
  }

  /** The cells of a table row: split on every {@code |} not escaped, as GitHub does. */
  private static List<String> cells(String line) {
    String inner = line.trim();
    inner = inner.substring(1, inner.endsWith("|") ? inner.length() - 1 : inner.length());
    return List.of(inner.split("(?<!\\\\)\\|", -1));
  }

  private static Set<String> headingSlugs() {
    Set<String> slugs = new LinkedHashSet<>();
    for (String line : lines()) {
      Matcher heading = HEADING.matcher(line);
      if (heading.matches()) {
        slugs.add(slug(heading.group(2)));
      }
    }
    return slugs;
  }

  /** A heading's anchor as GitHub makes it. */
  private static String slug(String heading) {
    return heading.toLowerCase().replaceAll("[^\\p{L}\\p{N} _-]", "").replace(' ', '-');
  }

  // ---- the sources

  /** Every Java source file of the project, with its code and the types it declares. */
  private record Sources(Map<Path, String> code, Map<String, List<Path>> declaring) {
    static Sources read() {
      Map<Path, String> code = new LinkedHashMap<>();
      Map<String, List<Path>> declaring = new HashMap<>();
      for (String module : MODULES) {
        Path src = ROOT.resolve(module).resolve("src").normalize();
        try (Stream<Path> files = Files.walk(src)) {
          for (Path file : files.filter(f -> f.toString().endsWith(".java")).sorted().toList()) {
            String text = PackageDependenciesTest.code(Files.readString(file));
            code.put(file, text);
            Matcher d = DECLARATION.matcher(text);
            while (d.find()) {
              declaring.computeIfAbsent(d.group(1), k -> new ArrayList<>()).add(file);
            }
          }
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
      assertThat(code).as("sources under %s", ROOT.toAbsolutePath()).hasSizeGreaterThan(500);
      return new Sources(code, declaring);
    }

    boolean declares(String name) {
      return declaring.containsKey(name);
    }

    /** Null when {@code m} is no class name; else what is wrong with it, empty when nothing is. */
    String problem(Mention m) {
      Matcher q = QUALIFIED.matcher(m.text());
      if (q.matches() && camel(q.group(2))) {
        String pkg = q.group(1).substring(0, q.group(1).length() - 1).replace('/', '.');
        return qualified(pkg, q.group(2), q.group(3));
      }
      Matcher j = JAVA_NAME.matcher(m.text());
      if (j.matches() && camel(j.group(2))) {
        String pkg = j.group(1).isEmpty() ? "" : j.group(1).substring(1);
        return qualified(pkg, j.group(2), j.group(3));
      }
      Matcher e = ELIDED.matcher(m.text());
      if (e.matches()) {
        return elided(e.group(1), e.group(2), e.group(3));
      }
      Matcher b = BARE.matcher(m.text());
      if (b.matches() && camel(b.group(1))) {
        return bare(b.group(1), b.group(2), m.pkg());
      }
      return null;
    }

    /** {@code dev.sluice.<pkg>.Name}, {@code pkg} empty for the root package. */
    private String qualified(String pkg, String name, String members) {
      String module = pkg.equals("client") || pkg.startsWith("client.") ? "client" : "server";
      String dir = "dev/sluice" + (pkg.isEmpty() ? "" : "/" + pkg.replace('.', '/'));
      Pattern glob = glob(name);
      List<Path> files =
          code.keySet().stream()
              .filter(f -> inSourceDir(f, module, dir) && glob.matcher(stem(f)).matches())
              .toList();
      if (files.isEmpty()) {
        return "no " + dir + "/" + name + ".java in the " + module + " module's sources";
      }
      return members(files, members);
    }

    private String elided(String dir, String sub, String name) {
      Path base = ROOT.resolve(dir).normalize();
      boolean directory = Character.isLowerCase(name.charAt(0));
      Pattern glob = glob(name);
      for (Path f : code.keySet()) {
        if (!f.startsWith(base)) {
          continue;
        }
        String path = "/" + base.relativize(f).toString().replace('\\', '/');
        if (directory
            ? path.contains("/" + sub + name + "/")
            : path.endsWith("/" + sub + f.getFileName()) && glob.matcher(stem(f)).matches()) {
          return "";
        }
      }
      return "no source " + (directory ? "directory " : "file ") + "under " + dir;
    }

    private String bare(String name, String members, String pkg) {
      if (FOREIGN.contains(name)) {
        return "";
      }
      Pattern glob = glob(name);
      List<Path> files =
          declaring.entrySet().stream()
              .filter(d -> glob.matcher(d.getKey()).matches())
              .flatMap(d -> d.getValue().stream())
              .filter(f -> pkg == null || inPackage(f, pkg))
              .distinct()
              .toList();
      if (files.isEmpty()) {
        return pkg == null
            ? "no such type in the project's sources"
            : "no such type in " + pkg + " (server/src/main/java); another package's is pkg/Name";
      }
      return members(files, members);
    }

    /** Empty when every member occurs as an identifier in one of {@code files}, else which not. */
    private String members(List<Path> files, String members) {
      for (String member : members.isEmpty() ? new String[0] : members.substring(1).split("\\.")) {
        Pattern word = Pattern.compile("\\b" + Pattern.quote(member) + "\\b");
        if (files.stream().noneMatch(f -> word.matcher(code.get(f)).find())) {
          return "no member " + member + " in " + files;
        }
      }
      return "";
    }

    /** Whether {@code file} lies directly in {@code dir} of one of {@code module}'s source sets. */
    private static boolean inSourceDir(Path file, String module, String dir) {
      Path src = ROOT.resolve(module).resolve("src").normalize();
      if (!file.startsWith(src)) {
        return false;
      }
      Path rel = src.relativize(file);
      return rel.getNameCount() > 3
          && rel.getName(1).toString().equals("java")
          && rel.subpath(2, rel.getNameCount() - 1).toString().replace('\\', '/').equals(dir);
    }

    /** Whether {@code file} is a main source of the server's package {@code pkg} (LAYERS form). */
    private static boolean inPackage(Path file, String pkg) {
      String dir = pkg.equals("dev.sluice") ? "dev/sluice" : "dev/sluice/" + pkg.replace('.', '/');
      Path main = ROOT.resolve("server/src/main/java").normalize().resolve(dir);
      return main.equals(file.getParent());
    }

    private static String stem(Path file) {
      String name = file.getFileName().toString();
      return name.substring(0, name.length() - ".java".length());
    }

    private static Pattern glob(String name) {
      return Pattern.compile(Pattern.quote(name).replace("*", "\\E\\w*\\Q"));
    }

    /** UpperCamel: some lower-case letter (a constant in capitals is not a class). */
    private static boolean camel(String name) {
      return name.chars().anyMatch(Character::isLowerCase);
    }
  }
}
