package dev.sluice.cli;

import static dev.sluice.cli.Calls.assertCall;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@code sluice catalogs verify}: the request, the table, and the exit status from the verdict. */
class VerifyCatalogCommandTest {
  private static final String PASSED =
      """
      {"catalog":"sales","storageType":"S3","verdict":"pass","passed":2,"failed":0,"skipped":1,
       "probePrefix":"s3://b/wh/sluice-verify-0a1b/","cleanup":"done",
       "checks":[
        {"name":"read-write: write in a","expected":"allowed","observed":"allowed","outcome":"pass","pass":true},
        {"name":"read-only: write in a","expected":"refused","observed":"refused (HTTP 403 AccessDenied)","outcome":"pass","pass":true,"status":403,"code":"AccessDenied"},
        {"name":"both: another bucket","expected":"refused","observed":"not run","outcome":"skipped","pass":false,"explanation":"not applicable: no otherLocation given"}]}""";
  private static final String FAILED =
      """
      {"catalog":"sales","storageType":"S3","verdict":"fail","passed":1,"failed":2,"skipped":0,
       "probePrefix":"s3://b/wh/sluice-verify-0a1b/","cleanup":"done",
       "checks":[
        {"name":"read-write: write in a","expected":"allowed","observed":"allowed","outcome":"pass","pass":true},
        {"name":"read-only: write in a","expected":"refused","observed":"allowed","outcome":"fail","pass":false,"explanation":"MIS-SCOPED: it is not read-only. Where to fix: the role."},
        {"name":"read-only: read in b","expected":"refused","observed":"allowed","outcome":"fail","pass":false,"explanation":"MIS-SCOPED: it could read b. Where to fix: the role."}]}""";

  private FakeServer server;

  @BeforeEach
  void start() throws Exception {
    server = FakeServer.start();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  @Test
  void aPassPrintsTheTableAndExitsZero() {
    server.answer("POST", "/catalogs/sales/verify", 200, PASSED);

    Cli.Result result = Cli.run(server, "catalogs", "verify", "sales");

    assertThat(result.exit()).as(result.err()).isZero();
    assertThat(result.err()).isEmpty();
    assertThat(result.out())
        .isEqualTo(
            """
            catalog sales (S3): PASS, 2 passed, 0 failed, 1 skipped
            CHECK                   EXPECTED  OBSERVED                         RESULT
            read-write: write in a  allowed   allowed                          PASS
            read-only: write in a   refused   refused (HTTP 403 AccessDenied)  PASS
            both: another bucket    refused   not run                          SKIPPED
            skipped both: another bucket: not applicable: no otherLocation given
            probe prefix s3://b/wh/sluice-verify-0a1b/, cleanup done
            """);
    assertCall(server.onlyCall(), "POST", "/catalogs/sales/verify", "{}");
  }

  @Test
  void aFailExitsOneWithTheExplanation() {
    server.answer("POST", "/catalogs/sales/verify", 200, FAILED);

    Cli.Result result =
        Cli.run(server, "catalogs", "verify", "sales", "--other-location", "s3://other/");

    assertThat(result.exit()).isEqualTo(1);
    assertThat(result.out())
        .contains("fail read-only: write in a: MIS-SCOPED: it is not read-only");
    assertThat(result.err())
        .isEqualTo("error: catalog sales failed the storage self-check (2 failed)\n");
    assertCall(
        server.onlyCall(), "POST", "/catalogs/sales/verify", "{\"otherLocation\":\"s3://other/\"}");

    Cli.Result json = Cli.json(server, "catalogs", "verify", "sales");
    assertThat(json.exit()).isEqualTo(1);
    assertThat(json.json()).isEqualTo(FakeServer.json(FAILED));
  }

  @Test
  void aRefusalIsAnErrorLine() {
    server.answer(
        "POST",
        "/catalogs/sales/verify",
        403,
        "{\"error\":{\"message\":\"Not authorized\",\"type\":\"ForbiddenException\",\"code\":403}}");

    Cli.Result result = Cli.run(server, "catalogs", "verify", "sales");

    assertThat(result.exit()).isEqualTo(1);
    assertThat(result.err()).startsWith("error: ").contains("Not authorized");
  }
}
