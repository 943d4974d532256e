package dev.sluice.http;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The web console at {@code /ui}: static assets built by npm at package time into the jar's {@code
 * console/} folder (server/console/build.sh), served from memory with a strict
 * Content-Security-Policy (scripts and styles from this origin only, no inline code, no framing).
 * The console is a client of the public APIs like any other: these routes carry no data and need no
 * token.
 */
public final class ConsoleRoutes {
  /** No inline script or style, nothing from another origin, never framed. */
  static final String CONTENT_SECURITY_POLICY =
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
          + "connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'none'; "
          + "frame-ancestors 'none'";

  private static final Map<String, String> TYPES =
      Map.of(
          "index.html", "text/html; charset=utf-8",
          "app.js", "text/javascript; charset=utf-8",
          "app.css", "text/css; charset=utf-8",
          "favicon.svg", "image/svg+xml");

  private final Map<String, Asset> assets;

  private record Asset(byte[] bytes, String contentType, String etag) {}

  /** The assets bundled under {@code folder} on the classpath (empty when built without them). */
  public ConsoleRoutes(String folder) {
    Map<String, Asset> found = new LinkedHashMap<>();
    TYPES.forEach(
        (name, type) -> read(folder + "/" + name).ifPresent(b -> found.put(name, asset(b, type))));
    this.assets = Map.copyOf(found);
  }

  public ConsoleRoutes() {
    this("console");
  }

  public void register(HttpServer.Routes routes) {
    routes.addPublic("GET", "/", x -> Reply.status(302, null).withHeader("Location", "/ui/"));
    routes.addPublic("GET", "/ui", x -> serve(x, "index.html"));
    routes.addPublic("GET", "/ui/{asset}", x -> serve(x, x.path("asset")));
  }

  private Reply serve(Exchange x, String name) {
    Asset asset = assets.get(name);
    if (asset == null) {
      return HttpServer.error(
          404,
          "NotFound",
          assets.isEmpty()
              ? "The console is not bundled in this build (server/console/build.sh did not run)"
              : "No console asset " + name);
    }
    String match = x.header("If-None-Match");
    Reply reply =
        match != null && match.equals(asset.etag())
            ? Reply.notModified(asset.etag())
            : new Reply(200, asset.bytes(), false, Map.of("Content-Type", asset.contentType()));
    return reply
        .withHeader("ETag", asset.etag())
        // Revalidate every time: a new server version must not run with an old script.
        .withHeader("Cache-Control", "no-cache")
        .withHeader("Content-Security-Policy", CONTENT_SECURITY_POLICY)
        .withHeader("X-Content-Type-Options", "nosniff")
        .withHeader("X-Frame-Options", "DENY")
        .withHeader("Referrer-Policy", "no-referrer");
  }

  private static Optional<byte[]> read(String resource) {
    try (InputStream in = ConsoleRoutes.class.getClassLoader().getResourceAsStream(resource)) {
      return in == null ? Optional.empty() : Optional.of(in.readAllBytes());
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read console asset " + resource, e);
    }
  }

  private static Asset asset(byte[] bytes, String type) {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(bytes);
      return new Asset(bytes, type, "\"" + HexFormat.of().formatHex(digest, 0, 16) + "\"");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
