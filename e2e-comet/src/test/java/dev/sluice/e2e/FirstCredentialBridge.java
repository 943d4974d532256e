package dev.sluice.e2e;

import dev.sluice.client.comet.SluiceCometCredentialProvider;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.comet.cloud.s3.CometS3CredentialContext;
import org.apache.comet.cloud.s3.CometS3Credentials;
import org.apache.comet.cloud.s3.CometS3LocationScopedCredentialProvider;

/**
 * The Sluice bridge with refresh taken away: it answers every request for a bucket and path with
 * the first credential the real bridge gave for it, as a client that caches a credential until it
 * fails would. It reports that credential's real expiry, so Comet, which asks again on every
 * request for a credential this short-lived, holds nothing itself: the test then shows what the
 * scan does when nobody refreshes.
 */
public final class FirstCredentialBridge implements CometS3LocationScopedCredentialProvider {
  private final SluiceCometCredentialProvider bridge = new SluiceCometCredentialProvider();
  private final Map<String, CometS3Credentials> first = new ConcurrentHashMap<>();

  public FirstCredentialBridge() {}

  @Override
  public void initialize(Map<String, String> properties) {
    bridge.initialize(properties);
  }

  @Override
  public List<String> getPolicyLocations(String bucket) throws Exception {
    return bridge.getPolicyLocations(bucket);
  }

  @Override
  public CometS3Credentials getCredentialsForPath(CometS3CredentialContext context)
      throws Exception {
    String key = context.getBucket() + context.getPath();
    CometS3Credentials kept = first.get(key);
    if (kept == null) {
      kept = bridge.getCredentialsForPath(context);
      CometS3Credentials raced = first.putIfAbsent(key, kept);
      kept = raced == null ? kept : raced;
    }
    return kept;
  }

  @Override
  public void close() {
    bridge.close();
  }
}
