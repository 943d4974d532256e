package dev.sluice.cli;

import static dev.sluice.cli.Calls.assertCall;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class ReadRestrictionsCommandTest {
  private static final String PATH =
      "/catalogs/lake/namespaces/sales%1Feu/tables/orders/read-restrictions";
  private static final String SHOWN =
      "{\"principalRole\":\"analysts\","
          + "\"rowFilter\":{\"type\":\"eq\",\"term\":\"region\",\"value\":\"EMEA\"},"
          + "\"hiddenColumns\":[\"ssn\"],\"maskedColumns\":{\"email\":\"mask-alphanum\"},"
          + "\"fieldIds\":{\"ssn\":3,\"email\":4,\"region\":2}}";

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
  void set() {
    server.answer("PUT", PATH + "/analysts", 200, SHOWN);

    Cli.Result result =
        Cli.run(
            server,
            "tables",
            "read-restrictions",
            "set",
            "--catalog",
            "lake",
            "--namespace",
            "sales.eu",
            "orders",
            "analysts",
            "--row-filter",
            "{\"type\":\"eq\",\"term\":\"region\",\"value\":\"EMEA\"}",
            "--hide",
            "ssn",
            "--mask",
            "email=mask-alphanum");

    assertThat(result.exit()).as(result.err()).isZero();
    assertCall(
        server.onlyCall(),
        "PUT",
        PATH + "/analysts",
        "{\"rowFilter\":{\"type\":\"eq\",\"term\":\"region\",\"value\":\"EMEA\"},"
            + "\"hiddenColumns\":[\"ssn\"],\"maskedColumns\":{\"email\":\"mask-alphanum\"}}");
    assertThat(result.out())
        .startsWith(
            "set the read restriction of principal role analysts on table sales.eu.orders of"
                + " catalog lake\n")
        .contains("hidden:     ssn")
        .contains("masked:     email=mask-alphanum");
  }

  @Test
  void aRowFilterThatIsNoJsonIsRefusedBeforeAnyCall() {
    Cli.Result result =
        Cli.run(
            server,
            "tables",
            "read-restrictions",
            "set",
            "--catalog",
            "lake",
            "--namespace",
            "sales.eu",
            "orders",
            "analysts",
            "--row-filter",
            "region = 'EMEA'");

    assertThat(result.exit()).isNotZero();
    assertThat(result.err()).contains("--row-filter");
    assertThat(server.calls()).isEmpty();
  }

  @Test
  void list() {
    server.answer(
        "GET",
        PATH,
        200,
        "{\"catalog\":\"lake\",\"namespace\":[\"sales\",\"eu\"],\"table\":\"orders\","
            + "\"restrictions\":["
            + SHOWN
            + "]}");

    Cli.Result result =
        Cli.run(
            server,
            "tables",
            "read-restrictions",
            "list",
            "--catalog",
            "lake",
            "--namespace",
            "sales.eu",
            "orders");

    assertThat(result.exit()).as(result.err()).isZero();
    assertCall(server.onlyCall(), "GET", PATH, null);
    assertThat(result.out())
        .startsWith("ROLE")
        .contains("analysts")
        .contains("ssn")
        .contains("email=mask-alphanum");
  }

  @Test
  void remove() {
    server.answer("DELETE", PATH + "/analysts", 204, null);

    Cli.Result result =
        Cli.run(
            server,
            "tables",
            "read-restrictions",
            "remove",
            "--catalog",
            "lake",
            "--namespace",
            "sales.eu",
            "orders",
            "analysts",
            "--yes");

    assertThat(result.exit()).as(result.err()).isZero();
    assertCall(server.onlyCall(), "DELETE", PATH + "/analysts", null);
    assertThat(result.out())
        .isEqualTo(
            "removed the read restriction of principal role analysts on table sales.eu.orders of"
                + " catalog lake\n");
  }
}
