package dev.sluice;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.authz.Caller;
import dev.sluice.management.CatalogAdmin;
import dev.sluice.store.AlreadyExists;
import dev.sluice.store.PrincipalRecord;
import dev.sluice.store.Store;
import dev.sluice.vending.StorageBackends;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * First-start setup: the root principal (from {@code SLUICE_BOOTSTRAP_CREDENTIALS} or generated)
 * and the {@code quickstart} catalog on the local warehouse. Generated credentials never reach the
 * log stream, where a log shipper would index them: they are written to {@link #CREDENTIALS_FILE}
 * in the data directory, readable by the server's user alone, and shown on the terminal when there
 * is one.
 */
final class Bootstrap {
  static final String ROOT = "root";
  static final String QUICKSTART = "quickstart";

  /** Where generated root credentials are written, in the data directory. */
  static final String CREDENTIALS_FILE = "root-credentials";

  /** The principal role that administers the service; created by the schema migration. */
  static final String SERVICE_ADMIN = Caller.SERVICE_ADMIN;

  private static final Logger LOG = LoggerFactory.getLogger(Bootstrap.class);

  private Bootstrap() {}

  static void run(
      Store store,
      StorageBackends backends,
      RootCredentials credentials,
      boolean quickstart,
      Path warehouse,
      Path dataDir,
      PrintStream terminal) {
    requireNonNull(store, "store");
    requireNonNull(credentials, "credentials");
    if (store.access().getPrincipal(ROOT).isPresent()) {
      if (!credentials.generated()) {
        LOG.info(
            "root principal exists; SLUICE_BOOTSTRAP_CREDENTIALS applies to the first start only and is ignored");
      }
      return;
    }
    String clientId = credentials.clientId();
    String secret = credentials.secret();
    boolean generated = credentials.generated();
    try {
      store
          .access()
          .createPrincipal(
              new PrincipalRecord(
                  ROOT, clientId, credentials.hash(), Map.of(), System.currentTimeMillis()),
              List.of(SERVICE_ADMIN));
    } catch (AlreadyExists e) {
      return; // another replica bootstrapped first
    }
    if (generated) {
      Path file = writeCredentials(dataDir.resolve(CREDENTIALS_FILE), clientId, secret);
      LOG.info("created the root principal; its generated credentials are in {}", file);
      if (terminal != null) {
        terminal.println("Sluice root credentials (also in " + file + ", readable by you only):");
        terminal.println("  client id: " + clientId);
        terminal.println("  secret:    " + secret);
        terminal.println("  credential=" + clientId + ":" + secret);
        terminal.println("Move them to your secret store, then delete " + file + ".");
      }
    } else {
      LOG.info("created the root principal from SLUICE_BOOTSTRAP_CREDENTIALS");
    }
    if (quickstart && store.getCatalog(QUICKSTART).isEmpty()) {
      String location = warehouse.toUri().toString().replaceFirst("^file:///", "file:/");
      ObjectNode storage = JsonNodeFactory.instance.objectNode();
      storage.put("storageType", "FILE");
      storage.putArray("allowedLocations").add(location);
      new CatalogAdmin(store, backends, Map.of(), 900)
          .create(QUICKSTART, "INTERNAL", Map.of("default-base-location", location), storage);
      LOG.info("created catalog {} at {}", QUICKSTART, location);
    }
  }

  /**
   * Writes the credentials to a new file that only its owner may read, created with those
   * permissions so no other user can open it in between; a file left from an earlier store is
   * replaced.
   */
  private static Path writeCredentials(Path file, String clientId, String secret) {
    String content =
        "# Sluice root credentials, generated on first start\n"
            + "client_id="
            + clientId
            + "\nclient_secret="
            + secret
            + "\ncredential="
            + clientId
            + ":"
            + secret
            + "\n";
    try {
      Files.deleteIfExists(file);
      if (file.getFileSystem().supportedFileAttributeViews().contains("posix")) {
        Files.createFile(
            file,
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
      } else {
        Files.createFile(file);
      }
      Files.writeString(file, content, StandardCharsets.UTF_8, StandardOpenOption.WRITE);
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot write the root credentials to " + file, e);
    }
  }
}
