package dev.sluice.testing;

import java.lang.reflect.Field;
import org.apache.iceberg.aws.s3.signer.S3V4RestSignerClient;

/**
 * Iceberg 1.10's {@link S3V4RestSignerClient} keeps its HTTP client (bound to the first signer URI
 * it saw) and its auth manager in static fields, so in one JVM every remote-signing FileIO would
 * talk to the first Sluice server a test started. Tests that sign reset them before and after.
 */
public final class SignerClientReset {
  private SignerClientReset() {}

  public static void reset() {
    for (String name : new String[] {"httpClient", "authManager"}) {
      try {
        Field field = S3V4RestSignerClient.class.getDeclaredField(name);
        field.setAccessible(true);
        Object held = field.get(null);
        if (held instanceof AutoCloseable closeable) {
          closeable.close();
        }
        field.set(null, null);
      } catch (Exception e) {
        throw new IllegalStateException("Cannot reset S3V4RestSignerClient." + name, e);
      }
    }
  }
}
