package dev.sluice;

import static dev.sluice.AuthorizationMatrixTest.rename;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.AuthorizationMatrixFixture.Catalog;
import dev.sluice.AuthorizationMatrixFixture.Grant;
import dev.sluice.testing.TestServer;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A rename needs DROP on the source and CREATE on the destination namespace. Holding only one of
 * them (or CREATE on another namespace) is 403, and both ends are as they were: the source keeps
 * its name, its metadata pointer and its grants; nothing is at the destination. The matrices check
 * the catalog as a whole; this names both ends, which a rename that moved first and authorized
 * after would change.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RenameAuthorizationTest {
  private AuthorizationMatrixFixture fx;

  @BeforeAll
  void start() throws Exception {
    fx = new AuthorizationMatrixFixture(TestServer.startH2());
  }

  @AfterAll
  void stop() throws Exception {
    fx.close();
  }

  /** Tables and views: ns.t or ns.v to empty.moved, with what bob holds. */
  static Stream<Arguments> refusedRenames() {
    List<Arguments> out = new ArrayList<>();
    for (String kind : List.of("tables", "views")) {
      String type = kind.equals("tables") ? "table" : "view";
      String prefix = type.toUpperCase();
      String source = type.substring(0, 1);
      Grant drop = new Grant(type, List.of("ns"), source, prefix + "_DROP");
      Grant createAtDestination =
          new Grant("namespace", List.of("empty"), null, prefix + "_CREATE");
      Grant createElsewhere = new Grant("namespace", List.of("ns"), null, prefix + "_CREATE");
      out.add(Arguments.of(kind, source, "drop on the source only", List.of(drop)));
      out.add(
          Arguments.of(
              kind, source, "create at the destination only", List.of(createAtDestination)));
      out.add(
          Arguments.of(
              kind,
              source,
              "drop on the source, create in another namespace",
              List.of(drop, createElsewhere)));
    }
    return out.stream();
  }

  @ParameterizedTest(name = "{0}: {2}")
  @MethodSource("refusedRenames")
  void aRefusedRenameLeavesBothEndsAsTheyWere(
      String kind, String source, String held, List<Grant> grants) throws Exception {
    Catalog catalog = fx.freshCatalog();
    for (Grant grant : grants) {
      fx.admin.grant(catalog.name(), "cr", grant.json());
    }
    String from = "ns/" + kind + "/" + source;
    String to = "empty/" + kind + "/moved";
    String sourcePointer = fx.pointer(catalog.name(), from);
    assertThat(sourcePointer).endsWith(".metadata.json");
    String before = fx.state(catalog.name());

    AuthorizationMatrixFixture.assertForbidden(
        fx.server.sendAs(
            fx.bobToken,
            "POST",
            catalog.url("/" + kind + "/rename"),
            rename("ns", source, "empty", "moved")));

    String sourceAfter = fx.pointer(catalog.name(), from);
    String destinationAfter = fx.pointer(catalog.name(), to);
    int destinationHead =
        fx.server
            .send(
                "HEAD", AuthorizationMatrixFixture.API + catalog.name() + "/namespaces/" + to, null)
            .statusCode();
    String after = fx.state(catalog.name());
    SoftAssertions ends = new SoftAssertions(); // both ends reported, whichever moved
    ends.assertThat(sourceAfter).as("the source").isEqualTo(sourcePointer);
    ends.assertThat(destinationAfter).as("the destination").isEqualTo("status 404");
    ends.assertThat(destinationHead).as("the destination (HEAD)").isEqualTo(404);
    ends.assertThat(after).as("a refused rename changes nothing").isEqualTo(before);
    ends.assertAll();
    // The grants stayed on the source: each is still there to revoke.
    for (Grant grant : grants) {
      assertThat(fx.admin.tryRevoke(catalog.name(), "cr", grant.json()))
          .as("revoke %s", grant)
          .isBetween(200, 204);
    }
  }
}
