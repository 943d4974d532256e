package dev.sluice.io;

import static java.util.Objects.requireNonNull;

import dev.sluice.location.StorageLocation;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.apache.iceberg.io.BulkDeletionFailureException;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.FileInfo;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.OutputFile;
import org.apache.iceberg.io.SupportsBulkOperations;
import org.apache.iceberg.io.SupportsPrefixOperations;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The catalog's FileIO as one table or view may use it on the server: reads and writes only inside
 * the table's own locations, and deletes only there. Paths a caller wrote into metadata (a metadata
 * log entry, a statistics file, a manifest, a data file) are not trusted: a delete outside is
 * skipped and logged with the table and the path; a read or write outside is refused.
 */
public final class ConfinedFileIO
    implements FileIO, SupportsBulkOperations, SupportsPrefixOperations {
  private static final Logger LOG = LoggerFactory.getLogger(ConfinedFileIO.class);

  private final FileIO delegate;
  private final String owner;
  private final List<StorageLocation> roots;

  /** {@code owner} names the table or view in logs; {@code roots} are its own locations. */
  public ConfinedFileIO(FileIO delegate, String owner, List<StorageLocation> roots) {
    this.delegate = requireNonNull(delegate, "delegate");
    this.owner = requireNonNull(owner, "owner");
    this.roots = List.copyOf(roots);
  }

  public List<StorageLocation> roots() {
    return roots;
  }

  /** True when {@code path} parses and lies inside one of the roots. */
  public boolean confines(String path) {
    return StorageLocation.anyCovers(roots, path);
  }

  @Override
  public InputFile newInputFile(String path) {
    return delegate.newInputFile(require(path, "read"));
  }

  @Override
  public InputFile newInputFile(String path, long length) {
    return delegate.newInputFile(require(path, "read"), length);
  }

  @Override
  public OutputFile newOutputFile(String path) {
    return delegate.newOutputFile(require(path, "write"));
  }

  @Override
  public void deleteFile(String path) {
    if (confines(path)) {
      delegate.deleteFile(path);
    } else {
      skipped(path);
    }
  }

  @Override
  public void deleteFiles(Iterable<String> paths) throws BulkDeletionFailureException {
    List<String> inside = new ArrayList<>();
    for (String path : paths) {
      if (confines(path)) {
        inside.add(path);
      } else {
        skipped(path);
      }
    }
    if (delegate instanceof SupportsBulkOperations bulk) {
      bulk.deleteFiles(inside);
    } else {
      inside.forEach(delegate::deleteFile);
    }
  }

  /** Lists a prefix inside the roots, when the delegate can. */
  @Override
  public Iterable<FileInfo> listPrefix(String prefix) {
    return prefixOperations().listPrefix(require(prefix, "list"));
  }

  /** Deletes everything under a prefix inside the roots, when the delegate can. */
  @Override
  public void deletePrefix(String prefix) {
    prefixOperations().deletePrefix(require(prefix, "delete"));
  }

  private SupportsPrefixOperations prefixOperations() {
    if (delegate instanceof SupportsPrefixOperations prefixes) {
      return prefixes;
    }
    throw new UnsupportedOperationException(
        "The FileIO of " + owner + " cannot list or delete by prefix");
  }

  @Override
  public Map<String, String> properties() {
    return delegate.properties();
  }

  /** The catalog owns the delegate; closing a view of it closes nothing. */
  @Override
  public void close() {}

  private String require(String path, String what) {
    if (!confines(path)) {
      LOG.warn("Refused to {} {} for {}: outside its own locations {}", what, path, owner, roots);
      throw new ForbiddenException("Cannot %s a file outside the locations of %s", what, owner);
    }
    return path;
  }

  private void skipped(String path) {
    LOG.warn("Skipped deleting {} for {}: outside its own locations {}", path, owner, roots);
  }
}
