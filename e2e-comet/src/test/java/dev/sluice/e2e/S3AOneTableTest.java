package dev.sluice.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.sluice.client.hadoop.SluiceS3ACredentialsProvider;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.iceberg.Schema;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Hadoop S3A (3.4.2) reading one table's files on Ceph RGW with the credential Sluice vends for
 * that table ({@link SluiceS3ACredentialsProvider}), configured from docs/ENGINES.md's {@code
 * s3a-one-table} snippet and nothing else: no S3 key anywhere. Refusals say where they come from:
 * Sluice's own (no TABLE_READ_DATA on the table) before any request reaches the store, and the
 * store's 403 for an object outside the table or a write with a read-only credential, explained by
 * {@code SluiceAccessDeniedInterceptor}. The bucket has no policy: a read that succeeds carried the
 * vended credential.
 *
 * <p>Needs the RGW bed ({@code ./scripts/test-all.sh}); fails, not skips, without it.
 */
class S3AOneTableTest {
  private static final String WAREHOUSE = "lake";
  private static final String NS = "s3a";
  private static final String ORDERS = "orders";
  private static final String ORDERS_EU = "orders_eu";
  private static final byte[] CONTENT = "PAR1 rows of orders PAR1".getBytes(StandardCharsets.UTF_8);

  private static CometTestBed bed;
  private static SluiceServerProcess server;
  private static String reader;
  private static String stranger;

  @BeforeAll
  static void start() throws Exception {
    long started = System.currentTimeMillis();
    Map<String, String> env = CometTestBed.environment("S3AOneTableTest");
    bed = CometTestBed.create(env, "sluice-e2e-s3a");
    server = SluiceServerProcess.start("s3a", CometTestBed.SERVER_CONFIG, env);
    SluiceAdmin admin = new SluiceAdmin(server, bed);
    admin.createCatalog(WAREHOUSE, "wh", 900);
    try (RESTCatalog catalog = new RESTCatalog()) {
      catalog.initialize(
          "root",
          Map.of(
              "uri", server.catalogUri(),
              "warehouse", WAREHOUSE,
              "credential", server.credential()));
      catalog.createNamespace(Namespace.of(NS));
      Schema schema = new Schema(Types.NestedField.required(1, "id", Types.LongType.get()));
      for (String table : List.of(ORDERS, ORDERS_EU)) {
        catalog.createTable(TableIdentifier.of(NS, table), schema);
        bed.put(dataKey(table), CONTENT);
      }
    }
    // reader: TABLE_READ_DATA on orders only; stranger: on orders_eu only (so it has standing in
    // the catalog, and Sluice answers it with a privilege, not "no such catalog").
    reader = admin.createPrincipal("reader", "readers");
    admin.createCatalogRole(WAREHOUSE, "orders_readers", "readers");
    admin.grantRead(WAREHOUSE, "orders_readers", NS, ORDERS, true);
    stranger = admin.createPrincipal("stranger", "strangers");
    admin.createCatalogRole(WAREHOUSE, "eu_readers", "strangers");
    admin.grantRead(WAREHOUSE, "eu_readers", NS, ORDERS_EU, true);
    System.out.printf("S3AOneTableTest set up in %d ms%n", System.currentTimeMillis() - started);
  }

  @AfterAll
  static void stop() throws Exception {
    ProcessSupport.closeAll(server, bed);
  }

  @Test
  void readsTheTablesFilesWithItsVendedCredential() throws Exception {
    long mark = bed.rgwLogMark();
    try (FileSystem fs = s3a(reader, ORDERS)) {
      FileStatus[] listed = fs.listStatus(new Path(url(dataDir(ORDERS))));
      assertThat(Arrays.stream(listed).map(s -> s.getPath().getName())).contains("part-0.parquet");
      try (InputStream in = fs.open(new Path(url(dataKey(ORDERS))))) {
        assertThat(in.readAllBytes()).isEqualTo(CONTENT);
      }
    }
    // RGW served the object to S3A, with an STS session of the catalog's role (the vended one).
    assertThat(requests(bed.rgwAccessLinesSince(mark), "GET", dataKey(ORDERS)))
        .isNotEmpty()
        .allSatisfy(
            l ->
                assertThat(l)
                    .contains("Hadoop 3.4.2")
                    .contains(" - catalog [")
                    .matches(".*\" 20[06] .*"));
  }

  @Test
  void sluiceRefusesAPrincipalWithoutTableReadDataBeforeTheStoreIsAsked() throws Exception {
    long mark = bed.rgwLogMark();
    Throwable refused;
    try (FileSystem fs = s3a(stranger, ORDERS)) {
      refused = catchThrowable(() -> fs.open(new Path(url(dataKey(ORDERS)))).close());
    }
    assertThat(refused).isNotNull();
    String text = SparkCometVendingTest.messages(refused);
    System.out.println("S3A, refused by Sluice:\n" + text);
    assertThat(text)
        .contains("Sluice cannot vend credentials for table " + NS + "." + ORDERS)
        .contains("Sluice answered HTTP 403")
        .contains(
            "is not authorized for loadCredentials on table "
                + NS
                + "."
                + ORDERS
                + " in catalog "
                + WAREHOUSE
                + " (needs TABLE_READ_DATA)")
        .matches(row("Sluice cannot vend credentials for table"))
        .doesNotContain(stranger.substring(stranger.indexOf(':') + 1));
    assertThat(requestsTo(bed.rgwAccessLinesSince(mark), dataKey(ORDERS)))
        .as("no request for the object reached RGW")
        .isEmpty();
  }

  @Test
  void theStoreRefusesAnObjectOfAnotherTableAndTheMessageNamesTheTableAndPrivilege()
      throws Exception {
    long mark = bed.rgwLogMark();
    Throwable refused;
    try (FileSystem fs = s3a(reader, ORDERS)) {
      refused = catchThrowable(() -> fs.open(new Path(url(dataKey(ORDERS_EU)))).close());
    }
    assertThat(refused).isInstanceOf(java.nio.file.AccessDeniedException.class);
    String text = SparkCometVendingTest.messages(refused);
    System.out.println("S3A, refused by RGW (another table):\n" + text);
    assertThat(text)
        .contains(dataKey(ORDERS_EU))
        .contains(
            "The store refused a read with the credential Sluice vends for table "
                + NS
                + "."
                + ORDERS
                + " (fs.s3a.sluice.table): it covers only that table's location, and reading"
                + " needs TABLE_READ_DATA on "
                + NS
                + "."
                + ORDERS)
        .contains("Status Code: 403")
        .matches(row("The store refused a read"));
    // RGW itself refused it (the credential was vended; the object is outside its policy).
    assertThat(requestsTo(bed.rgwAccessLinesSince(mark), dataKey(ORDERS_EU)))
        .isNotEmpty()
        .allSatisfy(l -> assertThat(l).contains(" - catalog [").matches(".*\" 403 .*"));
  }

  @Test
  void theStoreRefusesAWriteWithAReadOnlyCredentialAndTheMessageNamesTableWriteData()
      throws Exception {
    String key = dataDir(ORDERS) + "written-by-a-reader.parquet";
    long mark = bed.rgwLogMark();
    Throwable refused;
    try (FileSystem fs = s3a(reader, ORDERS)) {
      refused =
          catchThrowable(
              () -> {
                try (OutputStream out = fs.create(new Path(url(key)))) {
                  out.write(CONTENT);
                }
              });
    }
    assertThat(refused).isInstanceOf(java.nio.file.AccessDeniedException.class);
    String text = SparkCometVendingTest.messages(refused);
    System.out.println("S3A, a write refused by RGW:\n" + text);
    assertThat(text)
        .contains(
            "The store refused a write with the credential Sluice vends for table "
                + NS
                + "."
                + ORDERS
                + " (fs.s3a.sluice.table): it covers only that table's location, and writing"
                + " needs TABLE_WRITE_DATA on "
                + NS
                + "."
                + ORDERS
                + " (with TABLE_READ_DATA alone the credential is read-only)")
        .matches(row("The store refused a write"));
    assertThat(requests(bed.rgwAccessLinesSince(mark), "PUT", key))
        .isNotEmpty()
        .allSatisfy(l -> assertThat(l).matches(".*\" 403 .*"));
    assertThat(bed.keys(key)).isEmpty();
  }

  /**
   * An S3A filesystem on the test bucket for {@code credential} and {@code table}: the {@code
   * s3a-one-table} snippet of docs/ENGINES.md, on top of Hadoop's defaults.
   */
  private static FileSystem s3a(String credential, String table) throws Exception {
    Configuration conf = new Configuration();
    DocSnippets.properties(
            "s3a-one-table",
            DocSnippets.catalogValues(
                server.catalogUri(),
                WAREHOUSE,
                credential,
                Map.of(
                    "ns",
                    NS,
                    "table",
                    table,
                    "region",
                    bed.env("SLUICE_TEST_RGW_REGION"),
                    "s3-endpoint",
                    bed.env("SLUICE_TEST_RGW_ENDPOINT"))))
        .forEach(conf::set);
    return FileSystem.newInstance(URI.create("s3a://" + bed.bucket() + "/"), conf);
  }

  /** docs/ENGINES.md's troubleshooting row holding {@code marker}, for this bucket and table. */
  private static Pattern row(String marker) {
    return TroubleshootingRows.row(
        marker,
        Map.of(
            "s3a://B/",
            "s3a://" + bed.bucket() + "/",
            "ns.t",
            NS + "." + ORDERS,
            "catalog c",
            "catalog " + WAREHOUSE));
  }

  private static String dataDir(String table) {
    return "wh/" + NS + "/" + table + "/data/";
  }

  private static String dataKey(String table) {
    return dataDir(table) + "part-0.parquet";
  }

  private static String url(String key) {
    return "s3a://" + bed.bucket() + "/" + key;
  }

  /** RGW's access lines for {@code method} on {@code key}. */
  private static List<String> requests(List<String> access, String method, String key) {
    String request = "\"" + method + " /" + bed.bucket() + "/" + key + " ";
    return access.stream().filter(l -> l.contains(request)).toList();
  }

  /** RGW's access lines for any request on {@code key}. */
  private static List<String> requestsTo(List<String> access, String key) {
    String path = " /" + bed.bucket() + "/" + key + " ";
    return access.stream().filter(l -> l.contains(path)).toList();
  }
}
