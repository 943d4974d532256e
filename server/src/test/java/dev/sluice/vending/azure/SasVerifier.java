package dev.sluice.vending.azure;

import com.azure.storage.common.sas.SasProtocol;
import com.azure.storage.file.datalake.DataLakeFileSystemClientBuilder;
import com.azure.storage.file.datalake.DataLakePathClientBuilder;
import com.azure.storage.file.datalake.models.UserDelegationKey;
import com.azure.storage.file.datalake.sas.DataLakeServiceSasSignatureValues;
import com.azure.storage.file.datalake.sas.FileSystemSasPermission;
import com.azure.storage.file.datalake.sas.PathSasPermission;
import java.time.OffsetDateTime;
import java.util.Map;

/**
 * Test-side check of a user-delegation SAS: rebuilds the signature values from the token's own
 * fields ({@code se}, {@code sp}, {@code spr}, {@code sv}, the key fields), signs them for the
 * given resource with the given key through the SDK, and compares {@code sig}. Independent of how
 * Sluice chose those fields.
 */
final class SasVerifier {
  private SasVerifier() {}

  /**
   * @param directory the directory path for {@code sr=d}, or null for a container SAS
   */
  static boolean signatureMatches(
      String sas, String account, String container, String directory, UserDelegationKey key) {
    Map<String, String> f = SasSignerTest.fields(sas);
    if (!f.get("skoid").equals(key.getSignedObjectId())
        || !f.get("sktid").equals(key.getSignedTenantId())
        || !OffsetDateTime.parse(f.get("skt")).isEqual(key.getSignedStart())
        || !OffsetDateTime.parse(f.get("ske")).isEqual(key.getSignedExpiry())) {
      return false;
    }
    DataLakeServiceSasSignatureValues values =
        new DataLakeServiceSasSignatureValues(
                OffsetDateTime.parse(f.get("se")), new PathSasPermission())
            .setProtocol(SasProtocol.parse(f.get("spr")))
            .setVersion(f.get("sv"));
    String endpoint = "https://" + account + ".dfs.core.windows.net/" + container;
    String again;
    if (directory == null) {
      if (!"c".equals(f.get("sr"))) {
        return false;
      }
      values.setPermissions(FileSystemSasPermission.parse(f.get("sp")));
      again =
          new DataLakeFileSystemClientBuilder()
              .endpoint(endpoint)
              .buildClient()
              .generateUserDelegationSas(values, key, account, com.azure.core.util.Context.NONE);
    } else {
      if (!"d".equals(f.get("sr"))
          || !String.valueOf(directory.split("/").length).equals(f.get("sdd"))) {
        return false;
      }
      values.setPermissions(PathSasPermission.parse(f.get("sp")));
      again =
          new DataLakePathClientBuilder()
              .endpoint(endpoint + "/" + directory)
              .buildDirectoryClient()
              .generateUserDelegationSas(values, key, account, com.azure.core.util.Context.NONE);
    }
    return SasSignerTest.fields(again).get("sig").equals(f.get("sig"));
  }
}
