package dev.sluice.testing;

import java.util.List;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * {@link VendingContract.StoreClient} over an S3 client (RGW, or the R2 gateway in front of it).
 */
public final class S3Store {
  private S3Store() {}

  /** A store client on {@code s3}, for s3:// locations in any bucket. */
  public static VendingContract.StoreClient of(S3Client s3) {
    return new VendingContract.StoreClient() {
      @Override
      public byte[] get(String location) {
        return CephRgw.getBytes(s3, bucketOf(location), keyOf(location));
      }

      @Override
      public void put(String location, byte[] content) {
        CephRgw.put(s3, bucketOf(location), keyOf(location), content);
      }

      @Override
      public void delete(String location) {
        CephRgw.delete(s3, bucketOf(location), keyOf(location));
      }

      @Override
      public List<String> list(String location) {
        String prefix = keyOf(location);
        return s3
            .listObjectsV2(
                b -> b.bucket(bucketOf(location)).prefix(prefix.isEmpty() ? null : prefix))
            .contents()
            .stream()
            .map(o -> o.key())
            .toList();
      }
    };
  }

  /** What {@code admin} reads at {@code location}, or null when there is no such object. */
  public static byte[] read(S3Client admin, String location) {
    try {
      return CephRgw.getBytes(admin, bucketOf(location), keyOf(location));
    } catch (S3Exception e) {
      if (e.statusCode() == 404) {
        return null;
      }
      throw e;
    }
  }

  /** The bucket of an s3:// location. */
  public static String bucketOf(String location) {
    String rest = location.substring("s3://".length());
    return rest.substring(0, rest.indexOf('/'));
  }

  /** The key of an s3:// location ("" for the bucket root). */
  public static String keyOf(String location) {
    String rest = location.substring("s3://".length());
    return rest.substring(rest.indexOf('/') + 1);
  }
}
