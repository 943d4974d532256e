package dev.sluice.vending.azure;

import static java.util.Objects.requireNonNull;

import com.azure.core.exception.HttpResponseException;
import com.azure.storage.blob.models.BlobStorageException;
import com.azure.storage.file.datalake.models.DataLakeStorageException;
import dev.sluice.vending.StorageCredential;
import dev.sluice.vending.StorageProfile;
import dev.sluice.vending.StoreProbes;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.azure.adlsv2.ADLSFileIO;
import org.apache.iceberg.io.DelegateFileIO;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.FileInfo;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.OutputFile;

/**
 * The Azure side of the storage self-check: Iceberg's ADLSFileIO initialised with nothing but a
 * vended credential's properties ({@code adls.sas-token.*}, its expiry, the endpoint), as an engine
 * initialises it; refusals read from the Azure SDK's storage exceptions (status and {@code
 * x-ms-error-code}).
 *
 * <p>A user-delegation SAS grants the intersection of its own scope and permissions with the
 * catalog identity's role assignments, so a SAS the store left too wide is the SAS itself (its
 * scope, {@code sr}/{@code sdd}, or its permissions), the account (no hierarchical namespace), or
 * anonymous access on the container, never a role assignment that is too wide.
 */
final class AzureProbes implements StoreProbes {
  @Override
  public FileIO open(StorageCredential credential) {
    ADLSFileIO io = new ADLSFileIO();
    io.initialize(Map.copyOf(credential.config()));
    return new RefusingDelete(io);
  }

  /**
   * Azure Storage names every error in {@code x-ms-error-code} (HEAD answers too, in the header);
   * an error without one is not Azure's own answer but an emulator's for an operation it lacks
   * (Azurite 3.x answers Data Lake List Paths with a bare 400).
   */
  @Override
  public Optional<StoreAnswer> answer(Throwable error) {
    if (!(error instanceof HttpResponseException http) || http.getResponse() == null) {
      return Optional.empty();
    }
    int status = http.getResponse().getStatusCode();
    String code = code(http);
    if (code == null && status == 400) {
      return Optional.of(
          new StoreAnswer(
              status,
              null,
              "the store answered 400 without an Azure error code: an emulator without this"
                  + " Data Lake operation (Azurite has no List Paths); Azure Storage itself"
                  + " always names its error"));
    }
    return Optional.of(new StoreAnswer(status, code));
  }

  private static String code(HttpResponseException http) {
    if (http instanceof DataLakeStorageException lake && lake.getErrorCode() != null) {
      return lake.getErrorCode();
    }
    if (http instanceof BlobStorageException blob && blob.getErrorCode() != null) {
      return blob.getErrorCode().toString();
    }
    return http.getResponse().getHeaderValue("x-ms-error-code");
  }

  /** A SAS's expiry is the signer's choice: any lifetime is one Azure enforces. */
  @Override
  public Optional<StorageProfile> withLifetime(StorageProfile profile, int seconds) {
    AzureStorageProfile azure = (AzureStorageProfile) profile;
    return Optional.of(
        new AzureStorageProfile(
            azure.catalog(),
            azure.allowedLocations(),
            azure.credentialSourceName(),
            azure.tenantId(),
            seconds,
            azure.hierarchicalNamespace(),
            azure.containerScope(),
            azure.vendOnlyOnRequest()));
  }

  @Override
  public Optional<String> widerByDesign(StorageProfile profile) {
    AzureStorageProfile azure = (AzureStorageProfile) profile;
    if (!azure.containerScope()) {
      return Optional.empty();
    }
    return Optional.of(
        "this catalog is on a flat account with allowContainerScope: true, so each table's SAS"
            + " covers its whole container by the operator's choice; set hierarchicalNamespace:"
            + " true on a hierarchical-namespace account to scope each table to its directory");
  }

  @Override
  public String whereToFix(StorageProfile profile) {
    AzureStorageProfile azure = (AzureStorageProfile) profile;
    return "Where to fix: a user-delegation SAS grants at most its own scope and permissions"
        + " (the catalog identity's role assignments only narrow it, so they are not the cause)."
        + " Either the SAS was wider than this catalog asks for ("
        + (azure.containerScope()
            ? "a container SAS, sr=c"
            : "a directory SAS, sr=d with sdd = the directory's depth, on the table's own"
                + " directory")
        + "; readers sp=rl): compare the sr, sdd and sp of the adls.sas-token.* a table load"
        + " returns, a wider one is a Sluice defect to report; or the store honoured more than"
        + " the SAS: check that the storage account of "
        + azure.allowedLocations()
        + " has the hierarchical namespace enabled (hierarchicalNamespace: "
        + azure.hierarchicalNamespace()
        + " in this catalog; a directory SAS needs it), that the container allows no anonymous"
        + " (public) access, and that the credential source's endpoint is Azure Storage itself,"
        + " not a proxy or emulator that does not check a SAS's scope.";
  }

  /**
   * ADLSFileIO with one difference: {@code deleteFile} lets the store's refusal out, where
   * ADLSFileIO logs and swallows it (the engine never learns; the check must). Same client, same
   * SAS, same request.
   */
  private static final class RefusingDelete implements DelegateFileIO {
    private final ADLSFileIO io;

    RefusingDelete(ADLSFileIO io) {
      this.io = requireNonNull(io, "io");
    }

    @Override
    public void deleteFile(String path) {
      io.client(path).getFileClient(AzureLocation.parse(path).directory()).delete();
    }

    @Override
    public InputFile newInputFile(String path) {
      return io.newInputFile(path);
    }

    @Override
    public InputFile newInputFile(String path, long length) {
      return io.newInputFile(path, length);
    }

    @Override
    public OutputFile newOutputFile(String path) {
      return io.newOutputFile(path);
    }

    @Override
    public void deleteFiles(Iterable<String> paths) {
      paths.forEach(this::deleteFile);
    }

    @Override
    public Iterable<FileInfo> listPrefix(String prefix) {
      return io.listPrefix(prefix);
    }

    @Override
    public void deletePrefix(String prefix) {
      io.deletePrefix(prefix);
    }

    @Override
    public Map<String, String> properties() {
      return io.properties();
    }

    @Override
    public void close() {
      io.close();
    }
  }
}
