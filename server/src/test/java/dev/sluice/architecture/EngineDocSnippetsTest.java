package dev.sluice.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.CharacterCodingException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * docs/ENGINES.md is followed literally by its readers, so each of its code blocks is a snippet (a
 * {@code <!-- snippet: id -->} line right before the block) that an engine test configures its
 * engine from, through {@code e2e/.../DocSnippets}, or that a script in {@code scripts/} runs. This
 * test checks the page's side: no block without an id, and no id nothing reads. The engine tests
 * check the other side: they fail when a snippet stops working or stops matching their settings.
 */
class EngineDocSnippetsTest {
  private static final Path ROOT = Path.of("..");
  private static final Path PAGE = ROOT.resolve("docs/ENGINES.md");
  private static final Pattern MARKER = Pattern.compile("^<!-- snippet: ([a-z0-9-]+) -->$");

  /** Where a snippet may be used: the engine tests' sources and the scripts. */
  private static final List<String> READERS =
      List.of(
          "e2e/src/test", "e2e-comet/src/test", "e2e-flink/src/test", "client/src/test", "scripts");

  @Test
  void everyCodeBlockIsASnippet() throws IOException {
    List<String> lines = Files.readAllLines(PAGE);
    List<String> unmarked = new ArrayList<>();
    boolean inBlock = false;
    for (int i = 0; i < lines.size(); i++) {
      if (!lines.get(i).startsWith("```")) {
        continue;
      }
      if (!inBlock && (i == 0 || !MARKER.matcher(lines.get(i - 1).strip()).matches())) {
        unmarked.add("line " + (i + 1) + ": " + (i + 1 < lines.size() ? lines.get(i + 1) : ""));
      }
      inBlock = !inBlock;
    }
    assertThat(inBlock).as("a code block of %s is not closed", PAGE).isFalse();
    assertThat(unmarked).as("code blocks of %s without a snippet id", PAGE).isEmpty();
  }

  @Test
  void everySnippetIsReadByATestOrAScript() throws IOException {
    List<String> ids = snippetIds();
    assertThat(ids).as("snippets of %s", PAGE).isNotEmpty().doesNotHaveDuplicates();
    String readers = readerSources();
    List<String> unread = ids.stream().filter(id -> !readers.contains("\"" + id + "\"")).toList();
    assertThat(unread).as("snippets of %s that no test or script reads", PAGE).isEmpty();
  }

  private static List<String> snippetIds() throws IOException {
    List<String> ids = new ArrayList<>();
    for (String line : Files.readAllLines(PAGE)) {
      Matcher m = MARKER.matcher(line.strip());
      if (m.matches()) {
        ids.add(m.group(1));
      }
    }
    return ids;
  }

  /** The text of every test source and script that may read a snippet, concatenated. */
  private static String readerSources() throws IOException {
    StringBuilder all = new StringBuilder();
    for (String dir : READERS) {
      Path root = ROOT.resolve(dir);
      if (!Files.isDirectory(root)) {
        continue;
      }
      try (Stream<Path> files = Files.walk(root)) {
        files
            .filter(Files::isRegularFile)
            .filter(p -> !p.getFileName().toString().equals("DocSnippets.java"))
            .forEach(p -> all.append(read(p)).append('\n'));
      }
    }
    return all.toString();
  }

  private static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (CharacterCodingException e) {
      return ""; // not text (a binary under scripts/)
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
