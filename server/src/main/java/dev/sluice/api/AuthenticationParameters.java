package dev.sluice.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Locale;

/**
 * How a federated catalog authenticates to its remote catalog: {@code OAUTH} (client credentials:
 * {@code clientId} and the secret {@code secretReference} names; {@code tokenUri} defaults to the
 * remote's {@code v1/oauth/tokens}; {@code scopes} optional), {@code BEARER} (a static token, named
 * by {@code secretReference}) or {@code IMPLICIT} (no credential). {@code secretReference} names an
 * entry of the server's {@code federation.secrets}: the API never carries the secret itself.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record AuthenticationParameters(
    @JsonProperty(required = true) String authenticationType,
    String tokenUri,
    String clientId,
    List<String> scopes,
    String secretReference) {
  public static final String OAUTH = "OAUTH";
  public static final String BEARER = "BEARER";
  public static final String IMPLICIT = "IMPLICIT";

  public AuthenticationParameters {
    String field = "connectionConfigInfo.authenticationParameters.";
    Fields.nonEmpty(authenticationType, field + "authenticationType");
    authenticationType = authenticationType.toUpperCase(Locale.ROOT);
    scopes = Fields.copyOrNull(scopes);
    switch (authenticationType) {
      case OAUTH -> {
        Fields.nonEmpty(clientId, field + "clientId");
        Fields.nonEmpty(secretReference, field + "secretReference");
        if (tokenUri != null) {
          ConnectionConfigInfo.checkHttpUri(tokenUri, field + "tokenUri");
        }
      }
      case BEARER -> {
        Fields.nonEmpty(secretReference, field + "secretReference");
        refuse(tokenUri, field + "tokenUri", authenticationType);
        refuse(clientId, field + "clientId", authenticationType);
        refuse(scopes, field + "scopes", authenticationType);
      }
      case IMPLICIT -> {
        refuse(secretReference, field + "secretReference", authenticationType);
        refuse(tokenUri, field + "tokenUri", authenticationType);
        refuse(clientId, field + "clientId", authenticationType);
        refuse(scopes, field + "scopes", authenticationType);
      }
      default ->
          throw new IllegalArgumentException(
              "Unsupported "
                  + field
                  + "authenticationType: "
                  + authenticationType
                  + " (OAUTH, BEARER or IMPLICIT)");
    }
    if (scopes != null) {
      for (String scope : scopes) {
        if (scope == null || scope.isBlank() || scope.contains(" ")) {
          throw new IllegalArgumentException(
              "Invalid " + field + "scopes: " + scope + " (one scope per entry, no spaces)");
        }
      }
    }
  }

  private static void refuse(Object value, String field, String type) {
    if (value != null) {
      throw new IllegalArgumentException("Unexpected field " + field + " with " + type);
    }
  }
}
