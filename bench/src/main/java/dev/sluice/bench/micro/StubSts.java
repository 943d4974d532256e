package dev.sluice.bench.micro;

import dev.sluice.vending.VendingService;
import dev.sluice.vending.s3.CredentialSource;
import dev.sluice.vending.s3.S3StorageProfile;
import dev.sluice.vending.s3.StsCredentialVendor;
import java.lang.reflect.Field;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.function.Consumer;
import software.amazon.awssdk.services.sts.StsClient;
import software.amazon.awssdk.services.sts.model.AssumeRoleRequest;
import software.amazon.awssdk.services.sts.model.AssumeRoleResponse;
import software.amazon.awssdk.services.sts.model.Credentials;

/**
 * An STS that answers AssumeRole at once with the same fixed credential, without network, so the
 * vending benchmark measures Sluice's cache and its own work on a miss, not STS.
 *
 * <p>VendingService has no seam for a {@code CredentialVendor}: it builds one
 * {@link StsCredentialVendor} (a final class) per storage profile into a private map. So
 * {@link #install} builds that vendor as VendingService would, swaps the vendor's private StsClient
 * for this stub and puts the vendor in VendingService's map, both by reflection (class path, no
 * module checks). A miss thus still runs everything but the HTTP call: the session policy, the
 * session name, the AssumeRole request, the credential's client properties and the cache insert.
 */
final class StubSts implements StsClient {
  private final AssumeRoleResponse response;

  private StubSts(Instant expiration) {
    this.response = AssumeRoleResponse.builder()
        .credentials(Credentials.builder()
            .accessKeyId("ASIABENCHMARK0000000")
            .secretAccessKey("bench-secret-access-key-not-real-000000000")
            .sessionToken("bench-session-token-" + "x".repeat(300)) // STS session tokens run to hundreds of bytes
            .expiration(expiration)
            .build())
        .build();
  }

  @Override
  public AssumeRoleResponse assumeRole(AssumeRoleRequest request) {
    return response;
  }

  @Override
  public String serviceName() {
    return SERVICE_NAME;
  }

  @Override
  public void close() {}

  /** Makes {@code vending} vend for {@code profileKey} through a vendor whose STS is this stub. */
  static void install(VendingService vending, String profileKey, S3StorageProfile profile, CredentialSource source,
      Consumer<Duration> stsLatency) throws ReflectiveOperationException {
    StsCredentialVendor vendor = new StsCredentialVendor(profile, source, stsLatency);
    Field sts = StsCredentialVendor.class.getDeclaredField("sts");
    sts.setAccessible(true);
    ((StsClient) sts.get(vendor)).close();
    sts.set(vendor, new StubSts(Instant.now().plus(Duration.ofHours(1))));
    Field vendors = VendingService.class.getDeclaredField("vendors");
    vendors.setAccessible(true);
    @SuppressWarnings("unchecked")
    Map<String, StsCredentialVendor> map = (Map<String, StsCredentialVendor>) vendors.get(vending);
    map.put(profileKey, vendor);
  }
}
