package dev.sluice.vending.azure;

import com.azure.core.credential.TokenCredential;
import com.azure.identity.ClientSecretCredentialBuilder;
import com.azure.identity.ManagedIdentityCredentialBuilder;
import com.azure.identity.WorkloadIdentityCredentialBuilder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The azure-identity credential of each {@link AzureCredentialSource} type. Apart from it so that a
 * server without an Azure source never loads azure-core: its jars are signed, and the JVM checks a
 * signed jar's signature when it loads the first class from it (about 0.1 s of a start-up), which
 * checking these methods' return type did.
 */
final class AzureIdentities {
  private AzureIdentities() {}

  static TokenCredential clientSecret(AzureCredentialSource.Fields f) {
    ClientSecretCredentialBuilder builder =
        new ClientSecretCredentialBuilder()
            .tenantId(f.tenant())
            .clientId(f.guid("clientId", true))
            .clientSecret(f.required("clientSecret"));
    // A named authority (a sovereign cloud, a private one) is used as given: no discovery.
    Optional.ofNullable(f.url(AzureCredentialSource.AUTHORITY_HOST))
        .ifPresent(host -> builder.authorityHost(host).disableInstanceDiscovery());
    return builder.build();
  }

  static TokenCredential managedIdentity(AzureCredentialSource.Fields f) {
    ManagedIdentityCredentialBuilder builder = new ManagedIdentityCredentialBuilder();
    Optional.ofNullable(f.guid("clientId", false)).ifPresent(builder::clientId);
    return builder.build();
  }

  static TokenCredential workloadIdentity(AzureCredentialSource.Fields f) {
    WorkloadIdentityCredentialBuilder builder =
        new WorkloadIdentityCredentialBuilder()
            .tenantId(f.tenant())
            .clientId(f.guid("clientId", true));
    String tokenFile = f.required("tokenFile");
    if (!Files.isReadable(Path.of(tokenFile))) {
      throw new IllegalArgumentException(f.key() + "tokenFile: no readable file at " + tokenFile);
    }
    builder.tokenFilePath(tokenFile);
    Optional.ofNullable(f.url(AzureCredentialSource.AUTHORITY_HOST))
        .ifPresent(host -> builder.authorityHost(host).disableInstanceDiscovery());
    return builder.build();
  }
}
