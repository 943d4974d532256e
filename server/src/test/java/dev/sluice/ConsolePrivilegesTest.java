package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.authz.Privilege;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The console's grant matrix offers the privileges of {@link Privilege}, in its order: a privilege
 * added to the server without the console would be impossible to grant there.
 */
class ConsolePrivilegesTest {
  @Test
  void theGrantMatrixListsEveryPrivilegeOfTheServerInOrder() throws Exception {
    String source = Files.readString(Path.of("console/src/pages/access/common.tsx"));
    int start = source.indexOf("export const PRIVILEGES");
    String block = source.substring(start, source.indexOf("};", start));
    List<String> listed = new ArrayList<>();
    Matcher m = Pattern.compile("\"([A-Z_]+)\"").matcher(block);
    while (m.find()) {
      listed.add(m.group(1));
    }
    assertThat(listed)
        .containsExactlyElementsOf(Arrays.stream(Privilege.values()).map(Enum::name).toList());
  }
}
