package dev.sluice.e2e;

import dev.sluice.client.comet.CredentialUnavailableException;
import dev.sluice.client.comet.SluiceCometCredentialProvider;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.comet.cloud.s3.CometS3CredentialContext;
import org.apache.comet.cloud.s3.CometS3Credentials;
import org.apache.comet.cloud.s3.CometS3LocationScopedCredentialProvider;

/**
 * The Sluice bridge with one test hook: when it refuses a credential, it first runs the armed
 * action (once). The test arms it to grant the refused table, which puts the grant exactly between
 * Comet's failed read and its re-ask for the bucket's locations, while the job runs. Everything
 * else is the real bridge's behaviour.
 */
public final class GrantOnRefusalBridge implements CometS3LocationScopedCredentialProvider {
  static final AtomicReference<Runnable> ON_REFUSAL = new AtomicReference<>();
  static final AtomicInteger POLICY_CALLS = new AtomicInteger();
  static final AtomicInteger REFUSALS = new AtomicInteger();

  private final SluiceCometCredentialProvider bridge = new SluiceCometCredentialProvider();

  public GrantOnRefusalBridge() {}

  @Override
  public void initialize(Map<String, String> properties) {
    bridge.initialize(properties);
  }

  @Override
  public List<String> getPolicyLocations(String bucket) throws Exception {
    POLICY_CALLS.incrementAndGet();
    return bridge.getPolicyLocations(bucket);
  }

  @Override
  public CometS3Credentials getCredentialsForPath(CometS3CredentialContext context)
      throws Exception {
    try {
      return bridge.getCredentialsForPath(context);
    } catch (CredentialUnavailableException e) {
      REFUSALS.incrementAndGet();
      Runnable action = ON_REFUSAL.getAndSet(null);
      if (action != null) {
        action.run();
      }
      throw e;
    }
  }

  @Override
  public void close() {
    bridge.close();
  }
}
