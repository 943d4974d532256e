package dev.sluice.vending.verify;

import static java.util.Objects.requireNonNull;

import dev.sluice.vending.StoreProbes;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Optional;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.FileInfo;
import org.apache.iceberg.io.SupportsPrefixOperations;

/**
 * Object operations through an engine-side FileIO, each turned into what the store did ({@link
 * Observed}): the FileIO's exceptions are read through the backend's {@link StoreProbes#answer}.
 * Never lets an exception message out (it could quote a request), only status and code.
 */
final class ProbeClient implements AutoCloseable {
  private final FileIO io;
  private final StoreProbes probes;

  ProbeClient(FileIO io, StoreProbes probes) {
    this.io = requireNonNull(io, "io");
    this.probes = requireNonNull(probes, "probes");
  }

  Observed read(String location) {
    return attempt(
        () -> {
          try (InputStream in = io.newInputFile(location).newStream()) {
            in.read();
          }
        });
  }

  Observed write(String location, byte[] bytes) {
    return attempt(
        () -> {
          try (OutputStream out = io.newOutputFile(location).createOrOverwrite()) {
            out.write(bytes);
          }
        });
  }

  Observed delete(String location) {
    return attempt(() -> io.deleteFile(location));
  }

  /** Lists under {@code prefix} (a location ending in '/'); the first page is enough. */
  Observed list(String prefix) {
    if (!(io instanceof SupportsPrefixOperations lister)) {
      return Observed.error(0, null, "the engine-side FileIO cannot list");
    }
    return attempt(
        () -> {
          for (FileInfo ignored : lister.listPrefix(prefix)) {
            break;
          }
        });
  }

  private interface Action {
    void run() throws IOException;
  }

  private Observed attempt(Action action) {
    try {
      action.run();
      return Observed.allowed();
    } catch (IOException | RuntimeException e) {
      return classify(e);
    }
  }

  Observed classify(Throwable error) {
    for (Throwable t = error; t != null; t = t.getCause()) {
      Optional<StoreProbes.StoreAnswer> answer = probes.answer(t);
      if (answer.isPresent()) {
        int status = answer.get().status();
        String code = answer.get().code();
        if (answer.get().unsupported() != null) {
          return Observed.unsupported(status, code, answer.get().unsupported());
        }
        if (status == 401 || status == 403) {
          return Observed.refused(status, code);
        }
        if (status == 404) {
          return Observed.missing(status, code);
        }
        return Observed.error(status, code, "the store answered an error");
      }
      if (t instanceof org.apache.iceberg.exceptions.NotFoundException
          || t instanceof java.io.FileNotFoundException) {
        return Observed.missing(404, null);
      }
      if (t.getCause() == t) {
        break;
      }
    }
    return Observed.error(0, null, error.getClass().getSimpleName());
  }

  @Override
  public void close() {
    io.close();
  }
}
