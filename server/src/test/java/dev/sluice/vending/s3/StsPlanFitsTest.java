package dev.sluice.vending.s3;

import static dev.sluice.vending.s3.SessionPolicyGoldenTest.profile;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.vending.AccessMode;
import dev.sluice.vending.StorageTimeouts;
import dev.sluice.vending.VendingRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** What an S3 plan credential can name: measured on the policy STS would be sent, no call. */
class StsPlanFitsTest {
  private static final String TABLE = "s3://acme-lake/wh/sales/orders";

  private static StsCredentialVendor vendor(String extra) throws Exception {
    S3StorageProfile p = profile(extra);
    return new StsCredentialVendor(
        p,
        StsCredentialVendor.client(
            p,
            AwsCredentialSource.staticKeys("aws", "AKID", "secret"),
            StorageTimeouts.Provider.DEFAULT),
        d -> {});
  }

  private static VendingRequest objects(int count) {
    List<String> files = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      files.add(TABLE + "/data/day=2026-01-01/part-" + i + "-0000-1111-2222.parquet");
    }
    return new VendingRequest(
        TABLE, List.of(), files, AccessMode.READ, "alice", new TreeMap<>(Map.of("principal", "a")));
  }

  @Test
  void objectsFitWhileThePolicyStaysWithin2048Characters() throws Exception {
    try (StsCredentialVendor vendor = vendor("")) {
      int fitting = 0;
      while (vendor.fits(objects(fitting + 1))) {
        fitting++;
      }
      assertThat(fitting).as("objects of ~95 characters fitting").isBetween(15, 25);
      String policy =
          SessionPolicyBuilder.build(
              List.of(),
              SessionPolicyBuilder.objects(objects(fitting).objects()),
              AccessMode.READ,
              null,
              null,
              KmsKeys.NONE,
              AccessPoints.NONE,
              null);
      assertThat(policy.length()).isLessThanOrEqualTo(SessionPolicyBuilder.MAX_POLICY_CHARS);
    }
  }

  @Test
  void aReadTemplateTakesNoObjects() throws Exception {
    String template =
        ",\"readPolicyTemplate\":\"{\\\"Version\\\":\\\"2012-10-17\\\",\\\"Statement\\\":[{"
            + "\\\"Effect\\\":\\\"Allow\\\",\\\"Action\\\":[\\\"s3:GetObject\\\"],\\\"Resource\\\":"
            + "[\\\"arn:aws:s3:::{{.Bucket}}/{{.KeyPattern}}\\\"]}]}\"";
    try (StsCredentialVendor vendor = vendor(template)) {
      assertThat(vendor.fits(objects(1))).isFalse();
      assertThat(
              vendor.fits(
                  new VendingRequest(
                      TABLE,
                      List.of(TABLE + "/data/day=2026-01-01/"),
                      AccessMode.READ,
                      "alice",
                      new TreeMap<>())))
          .isTrue();
    }
  }
}
