package dev.sluice.e2e;

import static java.util.Objects.requireNonNull;
import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The access lines of the RGW bed's log ({@code beast: ... "PUT /bucket/key HTTP/1.1" 403 ...}):
 * what the store itself answered each request, whoever sent it. The log lies next to the bed's
 * ceph.conf ({@code SLUICE_TEST_RGW_CEPH_CONF}, exported by {@code scripts/testbeds.sh}).
 */
final class RgwAccessLog {
  private final Path log;

  private RgwAccessLog(Path log) {
    this.log = requireNonNull(log, "log");
  }

  /** The bed's log; fails (never skips) the test when it cannot be found. */
  static RgwAccessLog ofBed() {
    String conf = System.getenv("SLUICE_TEST_RGW_CEPH_CONF");
    if (conf == null || conf.isBlank()) {
      fail("SLUICE_TEST_RGW_CEPH_CONF is not set: run the tests with ./scripts/test-all.sh");
    }
    Path log = Path.of(conf).getParent().resolve("log/client.rgw.a.log");
    if (!Files.isRegularFile(log)) {
      fail("RGW's log is not at %s (next to SLUICE_TEST_RGW_CEPH_CONF)", log);
    }
    return new RgwAccessLog(log);
  }

  /** The log's size now: pass it to {@link #linesSince}. */
  long mark() {
    try {
      return Files.size(log);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The access lines about {@code bucket} written since {@code mark}. */
  List<String> linesSince(long mark, String bucket) {
    try (RandomAccessFile f = new RandomAccessFile(log.toFile(), "r")) {
      byte[] bytes = new byte[(int) Math.max(0, f.length() - mark)];
      f.seek(mark);
      f.readFully(bytes);
      return new String(bytes, StandardCharsets.UTF_8)
          .lines()
          .filter(l -> l.contains(" beast: ") && l.contains(" /" + bucket + "/"))
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
