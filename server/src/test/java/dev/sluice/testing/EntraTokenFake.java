package dev.sluice.testing;

import static java.nio.charset.StandardCharsets.UTF_8;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.spec.PKCS8EncodedKeySpec;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

/**
 * A loopback stand-in for Microsoft Entra ID's token endpoint, which cannot run here: the OAuth 2.0
 * client credentials grant as documented ({@code POST /<tenant>/oauth2/v2.0/token}, form-encoded
 * {@code grant_type=client_credentials}, {@code client_id}, {@code client_secret}, {@code
 * scope=<resource>/.default}), for registered service principals only, answering {@code
 * token_type}, {@code expires_in} and an access token with Entra's v1 claims for Azure Storage
 * ({@code iss=https://sts.windows.net/<tenant>/}, {@code aud=https://storage.azure.com}, {@code
 * tid}, {@code oid}, {@code nbf}, {@code exp}) — what Azurite's {@code --oauth basic} checks.
 * Served over HTTPS with the Azurite bed's certificate, because azure-identity insists on an HTTPS
 * authority. The signature is an HMAC with a random key: Azurite does not check it.
 */
public final class EntraTokenFake implements AutoCloseable {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Base64.Encoder B64 = Base64.getUrlEncoder().withoutPadding();
  private static final String STORAGE_SCOPE = "https://storage.azure.com/.default";

  /** A registered service principal. */
  public record Principal(String tenantId, String clientId, String secret, String objectId) {}

  private final HttpsServer server;
  private final byte[] signingKey = new byte[32];
  private final Map<String, Principal> principals = new ConcurrentHashMap<>();
  private final List<String> requests = new ArrayList<>();
  private final AtomicInteger issued = new AtomicInteger();
  private volatile long lifetimeSeconds = 3600;

  private EntraTokenFake(SSLContext tls) throws IOException {
    new SecureRandom().nextBytes(signingKey);
    server = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
    server.setHttpsConfigurator(new HttpsConfigurator(tls));
    server.setExecutor(Executors.newFixedThreadPool(2));
    server.createContext("/", this::handle);
    server.start();
  }

  /**
   * Starts on 127.0.0.1 with the Azurite bed's server certificate and key (PEM, next to its CA).
   */
  public static EntraTokenFake start(AzuriteBed bed) throws Exception {
    Path dir = Path.of(System.getenv(AzuriteBed.CERT_ENV)).getParent();
    return new EntraTokenFake(
        tls(dir.resolve("key.pem"), dir.resolve("cert.pem"), dir.resolve("ca.pem")));
  }

  /** The authority host for azure-identity's {@code authorityHost}. */
  public String authorityHost() {
    return "https://127.0.0.1:" + server.getAddress().getPort();
  }

  /** Registers a service principal with a fresh secret and object id. */
  public Principal register(String tenantId, String clientId) {
    byte[] secret = new byte[16];
    new SecureRandom().nextBytes(secret);
    Principal principal =
        new Principal(
            tenantId,
            clientId,
            HexFormat.of().formatHex(secret),
            java.util.UUID.randomUUID().toString());
    principals.put(tenantId + "/" + clientId, principal);
    return principal;
  }

  /** How long the tokens issued from now on live. */
  public void setLifetimeSeconds(long seconds) {
    this.lifetimeSeconds = seconds;
  }

  /** Tokens issued so far. */
  public int issued() {
    return issued.get();
  }

  /** Every request: method, path and the answer's status. */
  public synchronized List<String> requests() {
    return List.copyOf(requests);
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      String path = exchange.getRequestURI().getPath();
      int status;
      byte[] body;
      String[] parts = path.split("/");
      if (exchange.getRequestMethod().equals("POST")
          && parts.length == 5
          && parts[2].equals("oauth2")
          && parts[3].equals("v2.0")
          && parts[4].equals("token")) {
        Map<String, String> form =
            form(new String(exchange.getRequestBody().readAllBytes(), UTF_8));
        Object[] answer = token(parts[1], form);
        status = (int) answer[0];
        body = ((String) answer[1]).getBytes(UTF_8);
      } else {
        status = 404;
        body = error("invalid_request", "the fake serves only /<tenant>/oauth2/v2.0/token");
      }
      synchronized (this) {
        requests.add(exchange.getRequestMethod() + " " + path + " -> " + status);
      }
      exchange.getResponseHeaders().set("Content-Type", "application/json; charset=utf-8");
      exchange.sendResponseHeaders(status, body.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(body);
      }
    }
  }

  private Object[] token(String tenant, Map<String, String> form) throws IOException {
    if (!"client_credentials".equals(form.get("grant_type"))) {
      return new Object[] {400, new String(error("unsupported_grant_type", "AADSTS70003"), UTF_8)};
    }
    Principal principal = principals.get(tenant + "/" + form.get("client_id"));
    if (principal == null) {
      return new Object[] {
        400, new String(error("unauthorized_client", "AADSTS700016: application not found"), UTF_8)
      };
    }
    if (!principal.secret().equals(form.get("client_secret"))) {
      return new Object[] {
        401, new String(error("invalid_client", "AADSTS7000215: invalid client secret"), UTF_8)
      };
    }
    // MSAL adds the OpenID Connect scopes to every request; the resource is what matters.
    java.util.Set<String> scopes =
        new java.util.HashSet<>(List.of(String.valueOf(form.get("scope")).split(" ")));
    scopes.removeAll(List.of("openid", "profile", "offline_access"));
    if (!scopes.equals(java.util.Set.of(STORAGE_SCOPE))) {
      return new Object[] {
        400,
        new String(
            error(
                "invalid_scope",
                "AADSTS70011: the fake issues only "
                    + STORAGE_SCOPE
                    + ", not "
                    + form.get("scope")),
            UTF_8)
      };
    }
    long now = Instant.now().getEpochSecond();
    long lifetime = lifetimeSeconds;
    Map<String, Object> claims = new LinkedHashMap<>();
    claims.put("aud", "https://storage.azure.com");
    claims.put("iss", "https://sts.windows.net/" + tenant + "/");
    claims.put("iat", now);
    claims.put("nbf", now - 60);
    claims.put("exp", now + lifetime);
    claims.put("appid", principal.clientId());
    claims.put("oid", principal.objectId());
    claims.put("sub", principal.objectId());
    claims.put("tid", tenant);
    ObjectNode answer = JSON.createObjectNode();
    answer.put("token_type", "Bearer");
    answer.put("expires_in", lifetime);
    answer.put("ext_expires_in", lifetime);
    answer.put("access_token", jwt(claims));
    issued.incrementAndGet();
    return new Object[] {200, answer.toString()};
  }

  private String jwt(Map<String, Object> claims) throws IOException {
    String header = B64.encodeToString("{\"alg\":\"HS256\",\"typ\":\"JWT\"}".getBytes(UTF_8));
    String payload = B64.encodeToString(JSON.writeValueAsBytes(claims));
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(signingKey, "HmacSHA256"));
      byte[] sig = mac.doFinal((header + "." + payload).getBytes(UTF_8));
      return header + "." + payload + "." + B64.encodeToString(sig);
    } catch (java.security.GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  private static byte[] error(String code, String description) {
    ObjectNode node = JSON.createObjectNode();
    node.put("error", code);
    node.put("error_description", description);
    return node.toString().getBytes(UTF_8);
  }

  private static Map<String, String> form(String body) {
    Map<String, String> form = new LinkedHashMap<>();
    for (String pair : body.split("&")) {
      int eq = pair.indexOf('=');
      if (eq > 0) {
        form.put(
            URLDecoder.decode(pair.substring(0, eq), UTF_8),
            URLDecoder.decode(pair.substring(eq + 1), UTF_8));
      }
    }
    return form;
  }

  private static SSLContext tls(Path keyPem, Path certPem, Path caPem) throws Exception {
    String pem = Files.readString(keyPem);
    String base64 = pem.replaceAll("-----[A-Z ]+-----", "").replaceAll("\\s", "");
    PrivateKey key =
        KeyFactory.getInstance("EC")
            .generatePrivate(new PKCS8EncodedKeySpec(Base64.getDecoder().decode(base64)));
    CertificateFactory x509 = CertificateFactory.getInstance("X.509");
    Certificate cert =
        x509.generateCertificate(new ByteArrayInputStream(Files.readAllBytes(certPem)));
    Certificate ca = x509.generateCertificate(new ByteArrayInputStream(Files.readAllBytes(caPem)));
    KeyStore store = KeyStore.getInstance("PKCS12");
    store.load(null, null);
    char[] password = "entra".toCharArray();
    store.setKeyEntry("entra", key, password, new Certificate[] {cert, ca});
    KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    keys.init(store, password);
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(keys.getKeyManagers(), null, null);
    return context;
  }

  @Override
  public void close() {
    server.stop(0);
    ((java.util.concurrent.ExecutorService) server.getExecutor()).shutdownNow();
  }
}
