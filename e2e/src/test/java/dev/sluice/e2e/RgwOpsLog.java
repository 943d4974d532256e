package dev.sluice.e2e;

import static java.util.Objects.requireNonNull;
import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * RGW's ops log on the bed ({@code scripts/ceph-rgw.sh} writes it to {@code log/ops.log} next to
 * {@code SLUICE_TEST_RGW_CEPH_CONF}): one JSON object per request. Unlike the access lines of
 * {@link RgwAccessLog}, which name the RGW user that assumed the role (the same for every session),
 * an entry of a request signed with an STS credential names the session: {@code
 * "authentication_type": "STS", "sts_info": {"role_name": ..., "role_session": ...}}.
 */
final class RgwOpsLog {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int WAIT_SECONDS = 10;

  private final Path log;

  private RgwOpsLog(Path log) {
    this.log = requireNonNull(log, "log");
  }

  /**
   * The bed's ops log; fails (never skips) the test without the bed. RGW creates the file on the
   * first request it logs, so it may not exist yet.
   */
  static RgwOpsLog ofBed() {
    String conf = System.getenv("SLUICE_TEST_RGW_CEPH_CONF");
    if (conf == null || conf.isBlank()) {
      fail("SLUICE_TEST_RGW_CEPH_CONF is not set: run the tests with ./scripts/test-all.sh");
    }
    return new RgwOpsLog(Path.of(conf).getParent().resolve("log/ops.log"));
  }

  /** The log's size now: pass it to {@link #entriesSince}. */
  long mark() {
    try {
      return Files.exists(log) ? Files.size(log) : 0;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The entries about {@code bucket} written since {@code mark}. */
  List<JsonNode> entriesSince(long mark, String bucket) {
    List<JsonNode> entries = new ArrayList<>();
    for (String line : linesSince(mark).lines().toList()) {
      if (line.isBlank()) {
        continue;
      }
      JsonNode entry = parse(line);
      if (bucket.equals(entry.path("bucket").asText())) {
        entries.add(entry);
      }
    }
    return entries;
  }

  /**
   * The entries about {@code bucket} since {@code mark}, once one matches {@code wanted}: RGW
   * writes its ops log asynchronously, so an entry may appear a moment after the request was
   * answered. Fails after {@value #WAIT_SECONDS} s naming {@code what} and the entries seen.
   */
  List<JsonNode> await(long mark, String bucket, Predicate<JsonNode> wanted, String what) {
    Instant deadline = Instant.now().plus(Duration.ofSeconds(WAIT_SECONDS));
    List<JsonNode> entries = entriesSince(mark, bucket);
    while (entries.stream().noneMatch(wanted) && Instant.now().isBefore(deadline)) {
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
      entries = entriesSince(mark, bucket);
    }
    if (entries.stream().noneMatch(wanted)) {
      fail(
          "no entry of RGW's ops log (%s) shows %s within %d s; entries: %s",
          log, what, WAIT_SECONDS, entries);
    }
    return entries;
  }

  /** The STS session an entry's request was signed with, or null for a request with plain keys. */
  static String session(JsonNode entry) {
    return "STS".equals(entry.path("authentication_type").asText())
        ? entry.path("sts_info").path("role_session").asText(null)
        : null;
  }

  private String linesSince(long mark) {
    if (!Files.exists(log)) {
      return "";
    }
    try (RandomAccessFile f = new RandomAccessFile(log.toFile(), "r")) {
      long length = f.length();
      byte[] bytes = new byte[(int) Math.max(0, length - mark)];
      f.seek(mark);
      f.readFully(bytes);
      String text = new String(bytes, StandardCharsets.UTF_8);
      // A line still being written has no newline yet: leave it for the next read.
      int end = text.lastIndexOf('\n');
      return end < 0 ? "" : text.substring(0, end + 1);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static JsonNode parse(String line) {
    try {
      return JSON.readTree(line);
    } catch (IOException e) {
      throw new AssertionError("not a JSON line in RGW's ops log: " + line, e);
    }
  }
}
