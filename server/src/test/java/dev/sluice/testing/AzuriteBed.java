package dev.sluice.testing;

import com.azure.core.credential.TokenCredential;
import com.azure.core.http.HttpClient;
import com.azure.core.http.jdk.httpclient.JdkHttpClientBuilder;
import com.azure.storage.blob.BlobClient;
import com.azure.storage.blob.BlobClientBuilder;
import com.azure.storage.blob.BlobContainerClient;
import com.azure.storage.blob.BlobContainerClientBuilder;
import com.azure.storage.blob.BlobServiceClient;
import com.azure.storage.blob.BlobServiceClientBuilder;
import com.azure.storage.common.StorageSharedKeyCredential;
import com.azure.storage.file.datalake.DataLakeServiceClient;
import com.azure.storage.file.datalake.DataLakeServiceClientBuilder;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;
import javax.net.ssl.SSLContext;

/**
 * The private Azurite blob emulator (npm {@code azurite} 3.37.0) that {@code scripts/test-all.sh}
 * starts through {@code scripts/azurite.sh}: HTTPS on a free loopback port with a certificate from
 * a per-run CA, {@code --oauth basic}, {@code --skipApiVersionCheck}. Azure tests fail (they do not
 * skip) when it is not there.
 *
 * <p>Roles: the well-known emulator account key is used ONLY by {@link #adminClient()} (to create
 * containers and check what the store holds). The catalog's path is OAuth: {@link
 * #tokenCredential()} stands in for Microsoft Entra ID (which cannot run here) with JWTs that
 * Azurite's basic OAuth check accepts (see {@link AzuriteTokens}), so {@code getUserDelegationKey}
 * and user-delegation SAS work as against Azure.
 *
 * <p>What Azurite does and does not enforce (measured: AzuriteBedTest, AzuriteDirectorySasTest,
 * AzuriteAdlsFileIoTest):
 *
 * <ul>
 *   <li>service and user-delegation SAS for a container ({@code sr=c}) or blob ({@code sr=b}):
 *       permissions, container/blob scope, expiry and signature are enforced on the blob endpoint;
 *   <li>directory SAS ({@code sr=d}, Data Lake) is not understood: such a request is refused
 *       outright, even within the directory. Check directory SAS fields offline;
 *   <li>the Data Lake (dfs) operations are not implemented (List Paths: 400, empty body). Iceberg's
 *       ADLSFileIO still reads, writes and deletes (blob operations), but listPrefix fails;
 *   <li>the bearer token's signature is not checked (iss/aud/nbf/exp/oid/tid are);
 *   <li>{@code getUserDelegationKey(null, expiry)} gets 400 (empty body) from Azurite, where Azure
 *       takes a null start as "now": always pass a start;
 *   <li>azure-storage-blob 12.37 sends {@code x-ms-version: 2026-10-06}, newer than Azurite 3.37's
 *       newest (2026-06-06); the script's {@code --skipApiVersionCheck} accepts it, so no client
 *       pins a service version (ADLSFileIO could not).
 * </ul>
 *
 * <p>TLS: Azure SDK clients built here get {@link #httpClient()}; Iceberg's ADLSFileIO needs {@link
 * #installAsDefault()} first (see {@link AzuriteTls}).
 */
public final class AzuriteBed {
  public static final String ENDPOINT_ENV = "SLUICE_TEST_AZURITE_BLOB_ENDPOINT";
  public static final String CERT_ENV = "SLUICE_TEST_AZURITE_CERT";
  public static final String TRUSTSTORE_ENV = "SLUICE_TEST_AZURITE_TRUSTSTORE";
  public static final String TRUSTSTORE_PASSWORD_ENV = "SLUICE_TEST_AZURITE_TRUSTSTORE_PASSWORD";

  /** Azurite's default account. */
  public static final String ACCOUNT = "devstoreaccount1";

  /** The host Iceberg's ADLS locations name: {@code abfss://<container>@<this>/path}. */
  public static final String DFS_HOST = ACCOUNT + ".dfs.core.windows.net";

  // Azurite's published emulator key (docs and source); for the admin client only.
  private static final String ACCOUNT_KEY =
      "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

  private static volatile AzuriteBed instance;

  private final String endpoint;
  private final Path truststore;
  private final String truststorePassword;
  private final AzuriteTls tls;
  private final AzuriteTokens tokens = new AzuriteTokens();
  private final BlobServiceClient admin;

  /** Reads the bed's variables through {@code env} (System::getenv outside tests of the bed). */
  AzuriteBed(Function<String, String> env) {
    endpoint = stripSlash(required(env, ENDPOINT_ENV));
    if (!endpoint.startsWith("https://") || !endpoint.endsWith("/" + ACCOUNT)) {
      throw new IllegalStateException(
          ENDPOINT_ENV + "=" + endpoint + ": expected https://127.0.0.1:PORT/" + ACCOUNT);
    }
    tls = new AzuriteTls(Path.of(required(env, CERT_ENV)));
    truststore = Path.of(required(env, TRUSTSTORE_ENV));
    truststorePassword = required(env, TRUSTSTORE_PASSWORD_ENV);
    admin =
        new BlobServiceClientBuilder()
            .endpoint(endpoint)
            .credential(new StorageSharedKeyCredential(ACCOUNT, ACCOUNT_KEY))
            .httpClient(httpClient())
            .buildClient();
  }

  /**
   * The running bed.
   *
   * @throws IllegalStateException when {@value #ENDPOINT_ENV} (or another of its variables) is not
   *     set, i.e. the tests were not started by {@code ./scripts/test-all.sh}
   */
  public static AzuriteBed bed() {
    AzuriteBed bed = instance;
    if (bed == null) {
      synchronized (AzuriteBed.class) {
        bed = instance;
        if (bed == null) {
          bed = new AzuriteBed(System::getenv);
          instance = bed;
        }
      }
    }
    return bed;
  }

  private static String required(Function<String, String> env, String name) {
    String value = env.apply(name);
    if (value == null || value.isBlank()) {
      throw new IllegalStateException(
          name
              + " is not set: run ./scripts/test-all.sh, which installs and starts Azurite over"
              + " HTTPS (scripts/azurite.sh; for Azurite alone: source scripts/testbeds.sh;"
              + " testbeds_azurite_start)");
    }
    return value.trim();
  }

  private static String stripSlash(String s) {
    return s.endsWith("/") ? s.substring(0, s.length() - 1) : s;
  }

  /** {@code https://127.0.0.1:PORT/devstoreaccount1} (IP style: the account is the first path). */
  public String blobEndpoint() {
    return endpoint;
  }

  /** {@value #ACCOUNT}. */
  public String account() {
    return ACCOUNT;
  }

  /** Blob service client with the emulator's account key; the bed's own, do not close it. */
  public BlobServiceClient adminClient() {
    return admin;
  }

  /** Blob service client authenticating with bearer tokens from {@code credential}. */
  public BlobServiceClient oauthClient(TokenCredential credential) {
    return new BlobServiceClientBuilder()
        .endpoint(endpoint)
        .credential(credential)
        .httpClient(httpClient())
        .buildClient();
  }

  /** Data Lake service client authenticating with bearer tokens from {@code credential}. */
  public DataLakeServiceClient dataLakeOauthClient(TokenCredential credential) {
    return new DataLakeServiceClientBuilder()
        .endpoint(endpoint)
        .credential(credential)
        .httpClient(httpClient())
        .buildClient();
  }

  /** Container client holding only {@code sasToken} (no key, no token). */
  public BlobContainerClient sasContainerClient(String container, String sasToken) {
    return new BlobContainerClientBuilder()
        .endpoint(endpoint)
        .containerName(container)
        .sasToken(sasToken)
        .httpClient(httpClient())
        .buildClient();
  }

  /** Blob client holding only {@code sasToken} (no key, no token). */
  public BlobClient sasBlobClient(String container, String blob, String sasToken) {
    return new BlobClientBuilder()
        .endpoint(endpoint)
        .containerName(container)
        .blobName(blob)
        .sasToken(sasToken)
        .httpClient(httpClient())
        .buildClient();
  }

  /**
   * Creates a container with a unique name ({@code prefix-<12 hex>}, lowercased, 3-63 chars) with
   * the admin client and returns its name.
   */
  public String newContainer(String prefix) {
    String p = prefix.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9-]", "-").replaceAll("-+", "-");
    p = p.replaceAll("^-|-$", "");
    if (p.length() > 40) {
      p = p.substring(0, 40);
    }
    String name =
        (p.isEmpty() ? "c" : p)
            + "-"
            + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    admin.createBlobContainer(name);
    return name;
  }

  /** The tokens (and token makers) standing in for Entra ID. */
  public AzuriteTokens tokens() {
    return tokens;
  }

  /** {@link AzuriteTokens#credential()}: valid v1-style Entra tokens for Azure Storage. */
  public TokenCredential tokenCredential() {
    return tokens.credential();
  }

  /** Trusts the JDK's default CAs and this run's Azurite CA. */
  public SSLContext sslContext() {
    return tls.context();
  }

  /**
   * Makes {@link #sslContext()} the JVM default (for clients that build their own transport, such
   * as Iceberg's ADLSFileIO), and checks ADLSFileIO picked it up.
   *
   * @throws IllegalStateException when ADLSFileIO was initialised earlier in this JVM
   */
  public AzuriteBed installAsDefault() {
    tls.installAsDefault();
    return this;
  }

  /**
   * A new azure-core HTTP client (JDK transport) trusting {@link #sslContext()}: {@code
   * JdkHttpClientBuilder} keeps the {@code java.net.http.HttpClient.Builder} it is given.
   */
  public HttpClient httpClient() {
    return new JdkHttpClientBuilder(java.net.http.HttpClient.newBuilder().sslContext(sslContext()))
        .build();
  }

  /** PKCS#12 truststore holding the Azurite CA (for JVMs started outside the tests). */
  public Path truststore() {
    return truststore;
  }

  public String truststorePassword() {
    return truststorePassword;
  }

  /** Whether {@link #truststore()} opens with its password and holds the CA in {@code CERT}. */
  public boolean truststoreHoldsCa() {
    return tls.truststoreHoldsCa(truststore, truststorePassword.toCharArray());
  }

  /**
   * {@code DefaultEndpointsProtocol=https;AccountName=devstoreaccount1;BlobEndpoint=<endpoint>;}:
   * names the account and endpoint, no credential. Measured: the SDK's {@code connectionString(..)}
   * refuses it ("Invalid connection string", even with a SAS set on the builder), and ADLSFileIO's
   * {@code adls.connection-string.*} wants a URL, not a connection string (see {@link
   * #adlsFileIoProperties}). Use {@link #sasConnectionString} for the SDK.
   */
  public String connectionStringWithoutKey() {
    return "DefaultEndpointsProtocol=https;AccountName="
        + ACCOUNT
        + ";BlobEndpoint="
        + endpoint
        + ";";
  }

  /**
   * {@code BlobEndpoint=<endpoint>;SharedAccessSignature=<sas>}: the keyless connection string the
   * SDK accepts.
   */
  public String sasConnectionString(String sasToken) {
    return "BlobEndpoint=" + endpoint + ";SharedAccessSignature=" + sasToken;
  }

  /** {@code abfss://<container>@devstoreaccount1.dfs.core.windows.net/<path>}. */
  public String abfss(String container, String path) {
    return "abfss://" + container + "@" + DFS_HOST + "/" + path;
  }

  /**
   * Properties for Iceberg 1.10's {@code ADLSFileIO.initialize}: the endpoint for {@value
   * #DFS_HOST} and {@code sasToken} as its SAS. ADLSFileIO passes {@code adls.connection-string.*}
   * to {@code DataLakeFileSystemClientBuilder.endpoint(..)}, i.e. it must be a URL, not a
   * connection string.
   */
  public Map<String, String> adlsFileIoProperties(String sasToken) {
    return Map.of(
        "adls.connection-string." + DFS_HOST, endpoint,
        "adls.sas-token." + DFS_HOST, sasToken);
  }
}
