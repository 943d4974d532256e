package dev.sluice.vending.s3;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.StandardBackends;
import dev.sluice.vending.StorageProfile;
import dev.sluice.vending.StoreProbes.StoreAnswer;
import java.io.UncheckedIOException;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.services.s3.model.S3Exception;

/** The S3 part of the self-check, offline: refusals read from the SDK, the shorter profile. */
class S3ProbesTest {
  private static final String TEMPLATE =
      "{\"Version\":\"2012-10-17\",\"Statement\":[{\"Effect\":\"Allow\",\"Action\":[\"s3:GetObject\"],"
          + "\"Resource\":[\"arn:aws:s3:::{{.Bucket}}/{{.KeyPattern}}\"]}]}";
  private final S3Probes probes = new S3Probes();

  private static StorageProfile profile(boolean template) {
    ObjectNode info = new ObjectMapper().createObjectNode();
    info.put("storageType", "S3");
    info.putArray("allowedLocations").add("s3://bucket/wh");
    info.put("roleArn", "arn:aws:iam::123456789012:role/lake");
    info.put("region", "us-east-1");
    info.put("credentialSource", "aws");
    if (template) {
      info.put("readPolicyTemplate", TEMPLATE);
    }
    return StandardBackends.create().parse("c", info, "s3://bucket/wh", null, 900).profile();
  }

  @Test
  void theStoresStatusAndCodeAreReadFromTheServiceException() {
    S3Exception denied =
        (S3Exception)
            S3Exception.builder()
                .statusCode(403)
                .awsErrorDetails(AwsErrorDetails.builder().errorCode("AccessDenied").build())
                .build();
    assertThat(probes.answer(denied)).contains(new StoreAnswer(403, "AccessDenied"));
    // Ceph's STS-style errors carry no code: the status is what counts.
    assertThat(probes.answer(S3Exception.builder().statusCode(403).build()))
        .contains(new StoreAnswer(403, null));
    // Not the store's answer: a transport failure or a wrapper (the caller walks the chain).
    assertThat(probes.answer(SdkClientException.create("connection refused"))).isEmpty();
    assertThat(probes.answer(new UncheckedIOException(new java.io.IOException(denied)))).isEmpty();
  }

  @Test
  void theShortProfileDiffersOnlyInItsLifetime() {
    S3StorageProfile profile = (S3StorageProfile) profile(false);
    S3StorageProfile shorter = (S3StorageProfile) probes.withLifetime(profile, 2).orElseThrow();
    assertThat(shorter.durationSeconds()).isEqualTo(2);
    assertThat(shorter.withDuration(profile.durationSeconds())).isEqualTo(profile);
  }

  @Test
  void whereToFixNamesTheTemplateOnlyWhenThereIsOne() {
    assertThat(probes.whereToFix(profile(true)))
        .contains("readPolicyTemplate")
        .contains("arn:aws:iam::123456789012:role/lake")
        .contains("[s3://bucket/wh]")
        .contains("Ceph RGW Pacific");
    assertThat(probes.whereToFix(profile(false)))
        .doesNotContain("Template")
        .contains("arn:aws:iam::123456789012:role/lake");
  }
}
