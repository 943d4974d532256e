package dev.sluice.operations;

import dev.sluice.catalog.TableRestriction;
import dev.sluice.vending.Delegation;
import java.util.Arrays;
import java.util.Base64;
import org.apache.iceberg.rest.credentials.Credential;
import org.apache.iceberg.rest.responses.LoadTableResponse;

/**
 * The strong ETag of a loadTable response: a SHA-256 digest, truncated to 128 bits and written in
 * base64url, of everything the response body is made of. The metadata is named by its file (which
 * never changes once written) and the snapshots mode; the rest of the body is hashed as it will be
 * sent: the config (refresh and signing endpoints, the first credential's properties) and every
 * storage credential, prefix and properties (so its expiry and session token). The delegation
 * decision (kind and read-only or read-write) is hashed as well, so a change of the caller's access
 * changes the tag even where the body would not show it.
 *
 * <p>A vended credential's secret enters only the digest; the tag cannot give it away. A new
 * credential (the vending cache re-vends at half a credential's lifetime) means a new tag, so a
 * {@code 304} only ever confirms the credential that a full response would carry now.
 */
final class LoadTableETag {
  // Bumped if the digest's inputs change, so that tags issued before cannot match by accident.
  private static final String VERSION = "sluice-load-1";
  private static final int TAG_BYTES = 16;
  private static final Base64.Encoder BASE64URL = Base64.getUrlEncoder().withoutPadding();

  private LoadTableETag() {}

  /** The quoted tag (as the {@code ETag} header carries it) of {@code response}. */
  static String of(LoadTableResponse response, SnapshotsMode mode, Delegation delegation) {
    return of(response, mode, delegation, null);
  }

  /**
   * The tag of a restricted caller's {@code response}: the restriction (its row filter, hidden and
   * masked columns) is hashed too, so a changed restriction is never confirmed by a 304.
   */
  static String of(
      LoadTableResponse response,
      SnapshotsMode mode,
      Delegation delegation,
      TableRestriction restriction) {
    PartDigest digest =
        new PartDigest()
            .add(VERSION)
            .add(response.metadataLocation())
            .add(mode.queryValue())
            .add(delegation.isNone() ? "none" : delegation.kind().headerValue())
            .add(delegation.mode().map(Enum::name).orElse("none"))
            .add(response.config())
            .add(Integer.toString(response.credentials().size()));
    for (Credential credential : response.credentials()) {
      digest.add(credential.prefix()).add(credential.config());
    }
    if (restriction != null) {
      digest
          .add("restricted")
          .add(restriction.rowFilter().toString())
          .add(restriction.hiddenFieldIds().toString())
          .add(restriction.masks().toString());
    }
    byte[] hash = Arrays.copyOf(digest.finish(), TAG_BYTES);
    return '"' + BASE64URL.encodeToString(hash) + '"';
  }
}
