package dev.sluice.client.hadoop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.client.FakeSluice;
import java.net.URI;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

class SluiceS3ACredentialsProviderTest {

  @Test
  void readsTheSluiceKeysOfTheConfiguration() throws Exception {
    try (FakeSluice sluice = new FakeSluice()) {
      sluice.table("ns.t", true, "s3://bkt/wh/ns/t");
      Configuration conf = new Configuration(false);
      sluice.hadoopProperties().forEach(conf::set);
      conf.set("fs.s3a.sluice.table", "ns.t");

      SluiceS3ACredentialsProvider p =
          new SluiceS3ACredentialsProvider(URI.create("s3a://bkt"), conf);

      assertThat(sluice.totalCalls()).isZero();
      assertThat(p.resolveCredentials().accessKeyId()).isEqualTo(FakeSluice.accessKeyOf("ns.t", 1));
      assertThat(p.toString()).contains("table ns.t").doesNotContain(FakeSluice.CLIENT_SECRET);
    }
  }

  @Test
  void theTableMustBeNamed() {
    Configuration conf = new Configuration(false);
    conf.set("fs.s3a.sluice.uri", "http://127.0.0.1:1/api/catalog");
    conf.set("fs.s3a.sluice.credential", "id:hush");

    assertThatThrownBy(() -> new SluiceS3ACredentialsProvider(URI.create("s3a://bkt"), conf))
        .hasMessageContaining("fs.s3a.sluice.table is not set")
        .hasMessageNotContaining("hush");
  }
}
