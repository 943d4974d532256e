package dev.sluice.client.hadoop;

import dev.sluice.client.SluiceClient;
import dev.sluice.client.SluiceClientConfig;
import dev.sluice.client.SluiceCredentialsProvider;
import dev.sluice.client.TableRef;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.util.HashMap;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import software.amazon.awssdk.auth.credentials.AwsCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;

/**
 * Hadoop S3A credentials for one table, vended by Sluice ({@code
 * fs.s3a.aws.credentials.provider=dev.sluice.client.hadoop.SluiceS3ACredentialsProvider}). Reads
 * {@code fs.s3a.sluice.uri}, {@code .warehouse}, {@code .credential} (through Hadoop's credential
 * providers when one is configured) and {@code .table} ({@code ns.table}); per-bucket overrides
 * ({@code fs.s3a.bucket.<b>.sluice.*}) apply as S3A resolves them. See {@link
 * SluiceCredentialsProvider} for refresh behaviour.
 */
public final class SluiceS3ACredentialsProvider implements AwsCredentialsProvider {
  public static final String TABLE_KEY = SluiceClientConfig.HADOOP_PREFIX + "table";

  private final SluiceCredentialsProvider delegate;

  /** The constructor S3A calls: the filesystem URI ({@code s3a://bucket}) and its configuration. */
  public SluiceS3ACredentialsProvider(URI fsUri, Configuration conf) {
    Map<String, String> properties = new HashMap<>();
    for (Map.Entry<String, String> e :
        conf.getPropsWithPrefix(SluiceClientConfig.HADOOP_PREFIX).entrySet()) {
      properties.put(SluiceClientConfig.HADOOP_PREFIX + e.getKey(), e.getValue());
    }
    String credentialKey = SluiceClientConfig.HADOOP_PREFIX + SluiceClientConfig.CREDENTIAL_KEY;
    try {
      char[] secret = conf.getPassword(credentialKey);
      if (secret != null) {
        properties.put(credentialKey, new String(secret));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + credentialKey, e);
    }
    String table = conf.getTrimmed(TABLE_KEY);
    if (table == null || table.isEmpty()) {
      throw new IllegalArgumentException(TABLE_KEY + " is not set: name the table, as ns.table");
    }
    String bucket = fsUri == null ? null : fsUri.getHost();
    delegate =
        SluiceCredentialsProvider.create(
            new SluiceClient(SluiceClientConfig.fromProperties(properties)),
            TableRef.parse(table),
            bucket);
  }

  @Override
  public AwsCredentials resolveCredentials() {
    return delegate.resolveCredentials();
  }

  @Override
  public String toString() {
    return "SluiceS3ACredentialsProvider[" + delegate + "]";
  }
}
