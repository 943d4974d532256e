package dev.sluice.federation;

import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.OutputFile;

/**
 * The FileIO of a remote catalog's tables on the Sluice side: Sluice never reads, writes or deletes
 * a file of a federated table (the remote keeps its metadata files; engines read data with Sluice's
 * credentials), so whatever Iceberg's REST client would build from the remote's config, with the
 * remote's storage credentials in it, is never built.
 */
public final class InertFileIO implements FileIO {
  @Override
  public InputFile newInputFile(String path) {
    throw refused();
  }

  @Override
  public OutputFile newOutputFile(String path) {
    throw refused();
  }

  @Override
  public void deleteFile(String path) {
    throw refused();
  }

  private static UnsupportedOperationException refused() {
    return new UnsupportedOperationException(
        "Sluice does not read or write the files of a federated catalog's tables");
  }
}
