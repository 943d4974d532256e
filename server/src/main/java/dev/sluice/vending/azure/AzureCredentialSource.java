package dev.sluice.vending.azure;

import static java.util.Objects.requireNonNull;

import com.azure.core.credential.TokenCredential;
import dev.sluice.vending.CredentialSource;
import dev.sluice.vending.CredentialSourceType;
import dev.sluice.vending.ProfileFields;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * The catalog's own Entra ID identity for Azure storage, from the server's YAML, through
 * azure-identity: a service principal's client secret ({@code azure-client-secret}), a managed
 * identity ({@code azure-managed-identity}) or workload identity federation ({@code
 * azure-workload-identity}, the AKS projected token). It only ever asks for user delegation keys
 * and does the catalog's own I/O; engines get SAS tokens signed with those keys, never this
 * identity and never an account key.
 *
 * <p>Optional on every type: {@code endpoint}, the Blob service URL of the account (an emulator, a
 * private endpoint), which receives this identity's tokens and is handed to engines, so only the
 * operator's YAML may name it; and {@code authorityHost} (sovereign clouds) where azure-identity
 * takes one.
 */
public final class AzureCredentialSource implements CredentialSource {
  static final String ENDPOINT = "endpoint";
  static final String AUTHORITY_HOST = "authorityHost";
  private static final Pattern GUID =
      Pattern.compile("[0-9a-fA-F]{8}-([0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12}");

  /** The YAML {@code type}s of an Azure source. */
  static final List<CredentialSourceType> TYPES =
      List.of(
          new CredentialSourceType(
              "azure-client-secret",
              Set.of("tenantId", "clientId", "clientSecret", AUTHORITY_HOST, ENDPOINT),
              (name, f) -> of(name, "azure-client-secret", f, AzureIdentities::clientSecret)),
          new CredentialSourceType(
              "azure-managed-identity",
              Set.of("clientId", ENDPOINT),
              (name, f) -> of(name, "azure-managed-identity", f, AzureIdentities::managedIdentity)),
          new CredentialSourceType(
              "azure-workload-identity",
              Set.of("tenantId", "clientId", "tokenFile", AUTHORITY_HOST, ENDPOINT),
              (name, f) ->
                  of(name, "azure-workload-identity", f, AzureIdentities::workloadIdentity)));

  private final String name;
  private final String type;
  private final TokenCredential credential;
  private final String endpoint;

  private AzureCredentialSource(
      String name, String type, TokenCredential credential, String endpoint) {
    this.name = requireNonNull(name, "name");
    this.type = requireNonNull(type, "type");
    this.credential = requireNonNull(credential, "credential");
    this.endpoint = endpoint;
  }

  /** A source around a credential made elsewhere (tests with an emulator's identity). */
  public static AzureCredentialSource of(
      String name, String type, TokenCredential credential, String endpoint) {
    return new AzureCredentialSource(name, type, credential, endpoint);
  }

  private static AzureCredentialSource of(
      String name,
      String type,
      Map<String, String> fields,
      Function<Fields, TokenCredential> build) {
    Fields f = new Fields("storage.credentialSources." + name + ".", fields);
    String endpoint = f.url(ENDPOINT);
    return new AzureCredentialSource(name, type, build.apply(f), endpoint);
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public String type() {
    return type;
  }

  /** The Entra ID credential; azure-identity caches and refreshes its tokens. */
  public TokenCredential credential() {
    return credential;
  }

  /** The Blob service URL of the account, when not Azure's public endpoint. */
  public Optional<String> endpoint() {
    return Optional.ofNullable(endpoint);
  }

  @Override
  public String toString() {
    return "AzureCredentialSource[" + name + ", " + type + "]";
  }

  /** The YAML fields of one source; every error names its key. */
  record Fields(String key, Map<String, String> values) {
    String required(String field) {
      String value = values.get(field);
      if (value == null || value.isBlank()) {
        throw new IllegalArgumentException(key + field + " is required");
      }
      return value;
    }

    String guid(String field, boolean required) {
      String value = required ? required(field) : values.get(field);
      if (value != null && !GUID.matcher(value).matches()) {
        throw new IllegalArgumentException(key + field + " must be a GUID");
      }
      return value;
    }

    /** A tenant: its GUID or a verified domain (contoso.onmicrosoft.com). */
    String tenant() {
      String value = required("tenantId");
      if (!GUID.matcher(value).matches() && !value.matches("[a-zA-Z0-9.-]+\\.[a-zA-Z]{2,}")) {
        throw new IllegalArgumentException(key + "tenantId must be a GUID or a domain");
      }
      return value;
    }

    String url(String field) {
      String value = values.get(field);
      if (value == null) {
        return null;
      }
      ProfileFields.checkedUrl(value, key + field, Set.of("https"));
      return value.endsWith("/") ? value.substring(0, value.length() - 1) : value;
    }
  }
}
