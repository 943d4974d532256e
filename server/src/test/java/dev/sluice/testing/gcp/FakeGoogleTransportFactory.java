package dev.sluice.testing.gcp;

import com.google.api.client.http.HttpTransport;
import com.google.api.client.http.javanet.NetHttpTransport;
import com.google.auth.http.HttpTransportFactory;
import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.InetAddress;
import java.net.Proxy;
import java.net.URL;
import java.util.Set;

/**
 * The HTTP transport google-auth uses in tests, registered through {@code
 * META-INF/services/com.google.auth.http.HttpTransportFactory}: google-auth-library 1.57.0 takes
 * the first such service as the default wherever no factory was given explicitly ({@code
 * DownscopedCredentials}, {@code ImpersonatedCredentials}, {@code ServiceAccountCredentials} built
 * without one; not {@code fromStream}, which passes its own default, nor anything that passes a
 * factory). It sends Google's STS, IAM Credentials and OAuth hosts to the running {@link
 * GoogleCloudFake}, lets loopback URLs through, and refuses everything else: tests never reach
 * Google.
 */
public final class FakeGoogleTransportFactory implements HttpTransportFactory {
  private static final Set<String> REDIRECTED =
      Set.of("sts.googleapis.com", "iamcredentials.googleapis.com", "oauth2.googleapis.com");

  /** The running fake's endpoint, http://127.0.0.1:PORT; null when none is running. */
  private static volatile String target;

  static void register(String endpoint) {
    target = endpoint;
  }

  static void unregister(String endpoint) {
    if (endpoint.equals(target)) {
      target = null;
    }
  }

  @Override
  public HttpTransport create() {
    return new NetHttpTransport.Builder()
        .setConnectionFactory(FakeGoogleTransportFactory::open)
        .build();
  }

  /** The URL a request for {@code url} really goes to (or an IOException: not in tests). */
  static URL rewrite(URL url) throws IOException {
    String host = url.getHost();
    if (isLoopback(host)) {
      return url;
    }
    String endpoint = target;
    if (REDIRECTED.contains(host) && url.getProtocol().equals("https")) {
      if (endpoint == null) {
        throw new IOException("tests never reach Google: no GoogleCloudFake is running for " + url);
      }
      return new URL(endpoint + url.getFile());
    }
    throw new IOException("tests never reach Google: " + url);
  }

  private static HttpURLConnection open(URL url) throws IOException {
    return (HttpURLConnection) rewrite(url).openConnection(Proxy.NO_PROXY);
  }

  private static boolean isLoopback(String host) {
    if (host.equals("localhost")) {
      return true;
    }
    if (!host.matches("[0-9.]+|\\[[0-9a-fA-F:]+\\]")) {
      return false;
    }
    try {
      return InetAddress.getByName(host).isLoopbackAddress();
    } catch (IOException e) {
      return false;
    }
  }
}
