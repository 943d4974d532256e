package dev.sluice.cli;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import javax.net.ssl.SSLContext;

/**
 * Sends one request and turns transport failures into messages a user can act on. HTTP/1.1 only: an
 * h2c upgrade attempt buys nothing against a local server and confuses some proxies.
 */
final class HttpTransport {
  private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);
  static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(60);

  private final HttpClient http;

  HttpTransport() {
    this(null);
  }

  /** With {@code tls} (null: the JVM's default trust) for https:// servers. */
  HttpTransport(SSLContext tls) {
    HttpClient.Builder builder =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(CONNECT_TIMEOUT)
            .followRedirects(HttpClient.Redirect.NEVER);
    if (tls != null) {
      builder.sslContext(tls);
    }
    this.http = builder.build();
  }

  HttpResponse<String> send(HttpRequest request) {
    try {
      return http.send(request, HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new AdminFailure("cannot reach " + origin(request.uri()) + ": " + describe(e), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AdminFailure("interrupted while waiting for " + origin(request.uri()), e);
    }
  }

  // Only scheme://host:port: the rest of the URI adds nothing to "cannot reach".
  private static String origin(URI uri) {
    return uri.getScheme() + "://" + uri.getAuthority();
  }

  /** A TLS handshake that failed on the certificate path (PKIX), however the JDK wraps it. */
  private static boolean untrusted(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof java.security.cert.CertPathValidatorException
          || t instanceof java.security.cert.CertPathBuilderException
          || (t.getMessage() != null && t.getMessage().contains("PKIX"))) {
        return true;
      }
    }
    return false;
  }

  // The JDK's ConnectException usually has no message, and its cause's (ClosedChannelException)
  // says nothing useful.
  private static String describe(IOException e) {
    if (untrusted(e)) {
      return (e.getMessage() == null ? "certificate not trusted" : e.getMessage())
          + " (the server's certificate is not trusted: pass --ca-file with the CA that signed it,"
          + " or set SLUICE_CA_FILE or the profile's caFile)";
    }
    if (e.getMessage() != null && !e.getMessage().isBlank()) {
      return e.getMessage();
    }
    return e instanceof ConnectException
        ? "connection refused or host unreachable"
        : e.getClass().getSimpleName();
  }
}
