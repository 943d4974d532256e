package dev.sluice.http;

import dev.sluice.vending.Delegation;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.Base64;
import java.util.Map;
import java.util.TreeMap;
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
    MessageDigest digest = sha256();
    add(digest, VERSION);
    add(digest, response.metadataLocation());
    add(digest, mode.queryValue());
    add(digest, delegation.isNone() ? "none" : delegation.kind().headerValue());
    add(digest, delegation.mode().map(Enum::name).orElse("none"));
    add(digest, response.config());
    add(digest, Integer.toString(response.credentials().size()));
    for (Credential credential : response.credentials()) {
      add(digest, credential.prefix());
      add(digest, credential.config());
    }
    byte[] hash = Arrays.copyOf(digest.digest(), TAG_BYTES);
    return '"' + BASE64URL.encodeToString(hash) + '"';
  }

  private static void add(MessageDigest digest, Map<String, String> map) {
    // Sorted: the same entries give the same tag whatever order the map iterates in.
    Map<String, String> sorted = new TreeMap<>(map);
    add(digest, Integer.toString(sorted.size()));
    sorted.forEach(
        (key, value) -> {
          add(digest, key);
          add(digest, value);
        });
  }

  /** Length-prefixed, so that no two sequences of parts digest the same bytes; null is -1. */
  private static void add(MessageDigest digest, String part) {
    if (part == null) {
      digest.update(new byte[] {-1, -1, -1, -1});
      return;
    }
    byte[] bytes = part.getBytes(StandardCharsets.UTF_8);
    int n = bytes.length;
    digest.update(new byte[] {(byte) (n >>> 24), (byte) (n >>> 16), (byte) (n >>> 8), (byte) n});
    digest.update(bytes);
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required of every Java platform", e);
    }
  }
}
