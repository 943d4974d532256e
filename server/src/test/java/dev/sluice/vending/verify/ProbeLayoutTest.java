package dev.sluice.vending.verify;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ProbeLayoutTest {
  @Test
  void theWriteInAnotherBucketIsUnderThisProbesOwnRandomFolder() {
    // The other location is the caller's choice: a store that wrongly lets the probe write there
    // must only ever have made (and then lose) an object of this probe, never one that was there.
    ProbeLayout one = new ProbeLayout("s3://b/wh/sluice-verify-0a1b2c/", "s3://b/");
    ProbeLayout two = new ProbeLayout("s3://b/wh/sluice-verify-9f8e7d/", "s3://b/");
    assertThat(one.otherWrite("s3://other/x"))
        .isEqualTo("s3://other/x/sluice-verify-0a1b2c/write.bin");
    assertThat(one.otherWrite("s3://other/x/"))
        .isEqualTo("s3://other/x/sluice-verify-0a1b2c/write.bin");
    assertThat(two.otherWrite("s3://other/x")).isNotEqualTo(one.otherWrite("s3://other/x"));
  }
}
