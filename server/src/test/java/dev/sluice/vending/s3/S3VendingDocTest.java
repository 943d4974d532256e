package dev.sluice.vending.s3;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.StandardBackends;
import dev.sluice.vending.AccessMode;
import dev.sluice.vending.CredentialSource;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Every JSON snippet of docs/S3-VENDING.md parses, and the marked ones are checked: {@code <!--
 * catalog -->} is a storageConfigInfo the S3 backend accepts; {@code <!-- session-policy:
 * read|write -->} is exactly what Sluice sends STS for that catalog's table {@code sales.orders};
 * {@code <!-- policy: identity|resource|trust -->} keeps to AWS's documented policy grammar ({@link
 * AwsPolicyGrammar}).
 */
class S3VendingDocTest {
  private static final Path DOC = Path.of("..", "docs", "S3-VENDING.md");
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern BLOCK =
      Pattern.compile(
          "(?:<!-- ([a-z-]+)(?:: ([a-z]+))? -->\\s*)?```json\\n(.*?)```", Pattern.DOTALL);

  private record Snippet(String marker, String argument, String json) {}

  private static List<Snippet> snippets() throws Exception {
    List<Snippet> out = new ArrayList<>();
    Matcher m = BLOCK.matcher(Files.readString(DOC));
    while (m.find()) {
      // Indented blocks (inside a list item) keep their indentation; JSON does not mind.
      out.add(new Snippet(m.group(1), m.group(2), m.group(3)));
    }
    return out;
  }

  @Test
  void everySnippetIsJsonAndEveryMarkedOneIsChecked() throws Exception {
    List<Snippet> snippets = snippets();
    int catalogs = 0;
    int sessionPolicies = 0;
    int policies = 0;
    S3StorageProfile catalog = null;
    for (Snippet snippet : snippets) {
      JsonNode json = JSON.readTree(snippet.json());
      if (snippet.marker() == null) {
        continue;
      }
      switch (snippet.marker()) {
        case "catalog" -> {
          catalog = parse((ObjectNode) json);
          catalogs++;
        }
        case "session-policy" -> {
          assertThat(catalog).as("a session policy follows its catalog").isNotNull();
          AccessMode mode =
              snippet.argument().equals("write") ? AccessMode.READ_WRITE : AccessMode.READ;
          String table = catalog.allowedLocations().get(0) + "/sales/orders";
          assertThat(json)
              .as("the doc's %s session policy is what Sluice sends", snippet.argument())
              .isEqualTo(
                  JSON.readTree(SessionPolicyGoldenTest.policy(catalog, List.of(table), mode)));
          AwsPolicyGrammar.check(json, AwsPolicyGrammar.Kind.IDENTITY);
          sessionPolicies++;
        }
        case "policy" -> {
          AwsPolicyGrammar.check(
              json, AwsPolicyGrammar.Kind.valueOf(snippet.argument().toUpperCase()));
          policies++;
        }
        default -> throw new AssertionError("unknown snippet marker " + snippet.marker());
      }
    }
    assertThat(catalogs).isEqualTo(2);
    assertThat(sessionPolicies).isEqualTo(2);
    assertThat(policies).isEqualTo(6);
  }

  private static S3StorageProfile parse(ObjectNode info) {
    Map<String, CredentialSource> sources =
        Map.of("aws", AwsCredentialSource.staticKeys("aws", "AKID", "secret"));
    return (S3StorageProfile)
        StandardBackends.create()
            .parse(
                "lake",
                info,
                info.path("allowedLocations").get(0).asText(),
                sources,
                S3StorageProfile.MIN_DURATION)
            .profile();
  }
}
