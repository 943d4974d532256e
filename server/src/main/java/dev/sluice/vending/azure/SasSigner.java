package dev.sluice.vending.azure;

import com.azure.core.util.Context;
import com.azure.storage.common.sas.SasProtocol;
import com.azure.storage.file.datalake.DataLakeFileSystemClient;
import com.azure.storage.file.datalake.DataLakeFileSystemClientBuilder;
import com.azure.storage.file.datalake.models.UserDelegationKey;
import com.azure.storage.file.datalake.sas.DataLakeServiceSasSignatureValues;
import com.azure.storage.file.datalake.sas.FileSystemSasPermission;
import com.azure.storage.file.datalake.sas.PathSasPermission;
import dev.sluice.vending.AccessMode;
import java.time.OffsetDateTime;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Signs a user-delegation SAS for one {@link SasScope} with the Azure SDK's own signing code: a
 * directory SAS ({@code sr=d}, {@code sdd} = the directory's depth) or a container SAS ({@code
 * sr=c}), HTTPS only. Readers get {@code r} and {@code l}; writers also {@code a}, {@code c},
 * {@code w} and {@code d}. Never {@code m} (move: Iceberg never renames a file on ADLS) nor {@code
 * e}/{@code o}/{@code p} (ACLs and ownership: a SAS is authorized without POSIX ACL checks, and an
 * engine has no business changing them).
 */
final class SasSigner {
  /**
   * File system clients by container URL: the SDK signs through a client, and building one (its
   * HTTP pipeline) costs milliseconds, while a directory client from it costs microseconds. They
   * never send a request here.
   */
  private static final Map<String, DataLakeFileSystemClient> CLIENTS = new ConcurrentHashMap<>();

  private static final int MAX_CLIENTS = 1024;

  private SasSigner() {}

  static String sign(
      SasScope scope, AccessMode mode, UserDelegationKey key, OffsetDateTime expiry) {
    boolean write = mode == AccessMode.READ_WRITE;
    AzureLocation l = scope.location();
    DataLakeFileSystemClient container = client("https://" + l.host() + "/" + l.container());
    if (scope.container()) {
      FileSystemSasPermission permission =
          new FileSystemSasPermission()
              .setReadPermission(true)
              .setListPermission(true)
              .setAddPermission(write)
              .setCreatePermission(write)
              .setWritePermission(write)
              .setDeletePermission(write);
      return container.generateUserDelegationSas(
          values(expiry).setPermissions(permission), key, l.account(), Context.NONE);
    }
    PathSasPermission permission =
        new PathSasPermission()
            .setReadPermission(true)
            .setListPermission(true)
            .setAddPermission(write)
            .setCreatePermission(write)
            .setWritePermission(write)
            .setDeletePermission(write);
    return container
        .getDirectoryClient(l.directory())
        .generateUserDelegationSas(
            values(expiry).setPermissions(permission), key, l.account(), Context.NONE);
  }

  private static DataLakeFileSystemClient client(String url) {
    if (CLIENTS.size() > MAX_CLIENTS) {
      CLIENTS.clear();
    }
    return CLIENTS.computeIfAbsent(
        url, u -> new DataLakeFileSystemClientBuilder().endpoint(u).buildClient());
  }

  private static DataLakeServiceSasSignatureValues values(OffsetDateTime expiry) {
    return new DataLakeServiceSasSignatureValues(expiry, new PathSasPermission())
        .setProtocol(SasProtocol.HTTPS_ONLY);
  }
}
