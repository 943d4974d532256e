package dev.sluice.vending;

import java.util.Optional;
import org.apache.iceberg.io.FileIO;

/**
 * What the storage self-check needs from one backend, and only what differs between backends: an
 * engine-side FileIO holding nothing but a vended credential, how to read the store's answer from
 * that FileIO's exceptions, a profile with shorter sessions for the expiry check, and where an
 * operator fixes a credential the store left too wide. One small class per backend, returned by
 * {@link StorageBackend#probes()}.
 */
public interface StoreProbes {
  /**
   * A FileIO configured as an engine would configure it from {@code credential}'s Iceberg client
   * properties (endpoint, addressing, region, the credential), with no other key. It must support
   * prefix listing. The caller closes it.
   */
  FileIO open(StorageCredential credential);

  /**
   * A FileIO holding {@code credential} that sends it even past its expiry, for the expiry check:
   * by default {@link #open}. A backend whose engine-side client refuses, on its own, to send a
   * credential it knows expired (google-auth does) overrides it, so that the check observes the
   * store's refusal, as anyone who kept the credential would meet it, not the client's.
   */
  default FileIO openPastExpiry(StorageCredential credential) {
    return open(credential);
  }

  /**
   * The store's answer carried by {@code error} (one throwable of a cause chain; the caller walks
   * the chain), or empty when it is not one (a transport failure, a client-side error).
   */
  Optional<StoreAnswer> answer(Throwable error);

  /**
   * {@code profile} (of this backend) with credentials living {@code seconds}, or empty when the
   * backend cannot shorten them (then the expiry check is skipped, and says so).
   */
  Optional<StorageProfile> withLifetime(StorageProfile profile, int seconds);

  /**
   * Where to look when the store let a vended credential do more than its table allows, for the
   * explanation of a failed negative check (the role's policy, templates, the store's version).
   */
  String whereToFix(StorageProfile profile);

  /**
   * Why {@code profile}'s credentials cover their whole bucket or container by the operator's
   * explicit choice (Azure's {@code allowContainerScope} on a flat account), or empty. The checks
   * on other tables in that bucket and on a bucket-wide list are then skipped with this reason,
   * never passed: nothing narrower was promised, so nothing narrower can be proven.
   */
  default Optional<String> widerByDesign(StorageProfile profile) {
    return Optional.empty();
  }

  /**
   * The store's answer to one request: its HTTP status and error code (null when it sent none);
   * {@code unsupported} says why the answer proves neither allow nor refuse because the store does
   * not implement the operation (an emulator), making the row skipped, or is null.
   */
  record StoreAnswer(int status, String code, String unsupported) {
    public StoreAnswer(int status, String code) {
      this(status, code, null);
    }
  }
}
