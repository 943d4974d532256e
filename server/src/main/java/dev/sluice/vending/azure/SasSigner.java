package dev.sluice.vending.azure;

import com.azure.storage.common.sas.SasProtocol;
import com.azure.storage.file.datalake.DataLakeFileSystemClientBuilder;
import com.azure.storage.file.datalake.DataLakePathClientBuilder;
import com.azure.storage.file.datalake.models.UserDelegationKey;
import com.azure.storage.file.datalake.sas.DataLakeServiceSasSignatureValues;
import com.azure.storage.file.datalake.sas.FileSystemSasPermission;
import com.azure.storage.file.datalake.sas.PathSasPermission;
import dev.sluice.vending.AccessMode;
import java.time.OffsetDateTime;

/**
 * Signs a user-delegation SAS for one {@link SasScope} with the Azure SDK's own signing code: a
 * directory SAS ({@code sr=d}, {@code sdd} = the directory's depth) or a container SAS ({@code
 * sr=c}), HTTPS only. Readers get {@code r} and {@code l}; writers also {@code a}, {@code c},
 * {@code w} and {@code d}. Never {@code m} (move: Iceberg never renames a file on ADLS) nor {@code
 * e}/{@code o}/{@code p} (ACLs and ownership: a SAS is authorized without POSIX ACL checks, and an
 * engine has no business changing them).
 */
final class SasSigner {
  private SasSigner() {}

  static String sign(
      SasScope scope, AccessMode mode, UserDelegationKey key, OffsetDateTime expiry) {
    boolean write = mode == AccessMode.READ_WRITE;
    AzureLocation l = scope.location();
    String container = "https://" + l.host() + "/" + l.container();
    if (scope.container()) {
      FileSystemSasPermission permission =
          new FileSystemSasPermission()
              .setReadPermission(true)
              .setListPermission(true)
              .setAddPermission(write)
              .setCreatePermission(write)
              .setWritePermission(write)
              .setDeletePermission(write);
      return new DataLakeFileSystemClientBuilder()
          .endpoint(container)
          .buildClient()
          .generateUserDelegationSas(
              values(expiry).setPermissions(permission),
              key,
              l.account(),
              com.azure.core.util.Context.NONE);
    }
    PathSasPermission permission =
        new PathSasPermission()
            .setReadPermission(true)
            .setListPermission(true)
            .setAddPermission(write)
            .setCreatePermission(write)
            .setWritePermission(write)
            .setDeletePermission(write);
    return new DataLakePathClientBuilder()
        .endpoint(container + "/" + l.directory())
        .buildDirectoryClient()
        .generateUserDelegationSas(
            values(expiry).setPermissions(permission),
            key,
            l.account(),
            com.azure.core.util.Context.NONE);
  }

  private static DataLakeServiceSasSignatureValues values(OffsetDateTime expiry) {
    return new DataLakeServiceSasSignatureValues(expiry, new PathSasPermission())
        .setProtocol(SasProtocol.HTTPS_ONLY);
  }
}
