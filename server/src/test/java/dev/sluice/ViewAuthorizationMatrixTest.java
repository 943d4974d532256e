package dev.sluice;

import static dev.sluice.AuthorizationMatrixTest.SCHEMA;
import static dev.sluice.AuthorizationMatrixTest.SET_PROPS;
import static dev.sluice.AuthorizationMatrixTest.VIEW_VERSION;
import static dev.sluice.AuthorizationMatrixTest.rename;

import dev.sluice.AuthorizationMatrixFixture.Case;
import dev.sluice.AuthorizationMatrixFixture.Grant;
import dev.sluice.testing.TestServer;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link AuthorizationMatrixTest} for the view endpoints: without the privilege 403 and nothing
 * changes, with it success, after the revoke 403 again.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ViewAuthorizationMatrixTest {
  private AuthorizationMatrixFixture fx;

  @BeforeAll
  void start() throws Exception {
    fx = new AuthorizationMatrixFixture(startSluice());
  }

  /** The store under test: an H2 file here; the PostgreSQL subclass overrides this. */
  protected TestServer startSluice() throws Exception {
    return TestServer.startH2();
  }

  @AfterAll
  void stop() throws Exception {
    fx.close();
  }

  static Stream<Case> cases() {
    List<String> ns = List.of("ns");
    return Stream.of(
        new Case(
            "listViews",
            "VIEW_LIST",
            "namespace",
            ns,
            null,
            "GET",
            "/namespaces/ns/views",
            null,
            200),
        new Case(
            "createView",
            "VIEW_CREATE",
            "namespace",
            ns,
            null,
            "POST",
            "/namespaces/ns/views",
            "{\"name\": \"made\", \"schema\": "
                + SCHEMA
                + ", \"view-version\": "
                + VIEW_VERSION
                + ", \"properties\": {}}",
            200),
        new Case(
            "registerView",
            "VIEW_CREATE",
            "namespace",
            ns,
            null,
            "POST",
            "/namespaces/ns/register-view",
            "{\"name\": \"registered\", \"metadata-location\": \"{view-meta}\"}",
            200),
        new Case(
            "loadView",
            "VIEW_READ_PROPERTIES",
            "view",
            ns,
            "v",
            "GET",
            "/namespaces/ns/views/v",
            null,
            200),
        new Case(
            "viewExists",
            "VIEW_READ_PROPERTIES",
            "view",
            ns,
            "v",
            "HEAD",
            "/namespaces/ns/views/v",
            null,
            204),
        new Case(
            "replaceView",
            "VIEW_WRITE_PROPERTIES",
            "view",
            ns,
            "v",
            "POST",
            "/namespaces/ns/views/v",
            SET_PROPS,
            200),
        new Case(
            "dropView",
            "VIEW_DROP",
            "view",
            ns,
            "v",
            "DELETE",
            "/namespaces/ns/views/v",
            null,
            204),
        new Case(
            "renameView",
            List.of(
                new Grant("view", ns, "v", "VIEW_DROP"),
                new Grant("namespace", List.of("empty"), null, "VIEW_CREATE")),
            "POST",
            "/views/rename",
            rename("ns", "v", "empty", "moved"),
            204));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void forbiddenWithoutAllowedWithRefusedAfterRevoke(Case c) throws Exception {
    fx.run(c);
  }
}
