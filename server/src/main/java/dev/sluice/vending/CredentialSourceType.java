package dev.sluice.vending;

import static java.util.Objects.requireNonNull;

import java.util.Map;
import java.util.Set;

/**
 * One kind of credential source a backend accepts in the server YAML: its {@code type} value, the
 * keys it may carry besides {@code type}, and how to build it. The parser validates the values and
 * names the bad key ({@code storage.credentialSources.<name>.<key>}) in an {@link
 * IllegalArgumentException}.
 */
public record CredentialSourceType(String type, Set<String> keys, Parser parser) {
  @FunctionalInterface
  public interface Parser {
    CredentialSource parse(String name, Map<String, String> fields);
  }

  public CredentialSourceType {
    requireNonNull(type, "type");
    keys = Set.copyOf(keys);
    requireNonNull(parser, "parser");
  }
}
