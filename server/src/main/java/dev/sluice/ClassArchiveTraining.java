package dev.sluice;

import dev.sluice.auth.SecretHasher;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The training run of {@code sluice archive-classes} ({@link ArchiveClassesCommand}), in a JVM
 * started with {@code -XX:ArchiveClassesAtExit}: the classes it loads are what the JVM writes to
 * the archive as it exits. It serves twice, on a temporary data directory and a free loopback port:
 * a first start (the schema created, the root principal and {@code quickstart} bootstrapped), then
 * a start on that store with a config file; each time it answers a few requests of each kind
 * (health, a token, namespaces and a table with a commit, the management API, the console), then
 * stops.
 *
 * <p>It reads no {@code SLUICE_*} variable: whatever the environment names (a production database),
 * the training serves only its own temporary store.
 */
public final class ClassArchiveTraining {
  private static final String CLIENT_ID = "class-archive-training";
  private static final Pattern TOKEN = Pattern.compile("\"access_token\"\\s*:\\s*\"([^\"]+)\"");

  private ClassArchiveTraining() {}

  public static void main(String[] args) throws Exception {
    Path dir = Files.createTempDirectory("sluice-class-archive-");
    int exit;
    try {
      exit = train(dir);
    } finally {
      deleteRecursively(dir);
    }
    System.exit(exit); // the JVM writes the archive as it exits
  }

  /** Serves twice on {@code dir}; 0 when both starts served, 1 otherwise. */
  static int train(Path dir) throws Exception {
    String secret = SecretHasher.randomToken(16);
    Map<String, String> variables =
        Map.of("SLUICE_BOOTSTRAP_CREDENTIALS", CLIENT_ID + ":" + secret);
    Function<String, String> env = variables::get;
    Path data = dir.resolve("data");
    String[] first = {"serve", "--host", "127.0.0.1", "--port", "0", "--data-dir", data.toString()};
    // The second start reads a config file (YAML), with the store's H2 also serving other
    // processes (AUTO_SERVER, as the benchmark's Sluice runs it).
    Path config =
        Files.writeString(
            dir.resolve("sluice.yaml"),
            "database:\n  url: \"jdbc:h2:file:"
                + data.resolve("catalog")
                + ";AUTO_SERVER=TRUE\"\nlogging:\n  format: json\n");
    String[] second = Arrays.copyOf(first, first.length + 2);
    second[first.length] = "--config";
    second[first.length + 1] = config.toString();
    for (String[] args : List.of(first, second)) {
      Main.Serve serve = ServeArguments.parse(args).orElseThrow();
      serve.main = new Main();
      try (SluiceServer server = serve.start(env)) {
        if (server == null) {
          return 1;
        }
        requests("http://127.0.0.1:" + server.port(), secret);
      }
    }
    return 0;
  }

  /** A few requests of each kind the server answers; their answers are not checked. */
  private static void requests(String base, String secret) throws IOException {
    call(base, "GET", "/healthz", null, null);
    call(base, "GET", "/readyz", null, null);
    String form =
        "grant_type=client_credentials&client_id="
            + CLIENT_ID
            + "&client_secret="
            + secret
            + "&scope=PRINCIPAL_ROLE:ALL";
    Matcher token = TOKEN.matcher(call(base, "POST", "/api/catalog/v1/oauth/tokens", form, null));
    if (!token.find()) {
      return;
    }
    String bearer = token.group(1);
    String catalog = "/api/catalog/v1/" + Bootstrap.QUICKSTART;
    String namespace = catalog + "/namespaces/training";
    String table = namespace + "/tables/events";
    call(base, "GET", "/api/catalog/v1/config?warehouse=" + Bootstrap.QUICKSTART, null, bearer);
    call(base, "POST", catalog + "/namespaces", "{\"namespace\":[\"training\"]}", bearer);
    call(base, "GET", catalog + "/namespaces", null, bearer);
    call(base, "GET", namespace, null, bearer);
    call(
        base,
        "POST",
        namespace + "/tables",
        "{\"name\":\"events\",\"schema\":{\"type\":\"struct\",\"schema-id\":0,\"fields\":"
            + "[{\"id\":1,\"name\":\"id\",\"required\":true,\"type\":\"long\"}]}}",
        bearer);
    call(base, "GET", table, null, bearer);
    call(
        base,
        "POST",
        table,
        "{\"requirements\":[],\"updates\":[{\"action\":\"set-properties\","
            + "\"updates\":{\"training\":\"yes\"}}]}",
        bearer);
    call(base, "GET", namespace + "/tables", null, bearer);
    call(base, "DELETE", table + "?purgeRequested=true", null, bearer);
    call(base, "DELETE", namespace, null, bearer);
    for (String list : new String[] {"catalogs", "principals", "principal-roles"}) {
      call(base, "GET", "/api/management/v1/" + list, null, bearer);
    }
    call(base, "GET", "/ui/", null, null);
    call(base, "GET", "/ui/app.js", null, null);
    call(base, "GET", "/metrics", null, null);
  }

  /** One request; its body (an error's too), or an empty string when it could not be sent. */
  private static String call(String base, String method, String path, String body, String bearer)
      throws IOException {
    HttpURLConnection http = (HttpURLConnection) URI.create(base + path).toURL().openConnection();
    http.setRequestMethod(method);
    http.setConnectTimeout(10_000);
    http.setReadTimeout(60_000);
    if (bearer != null) {
      http.setRequestProperty("Authorization", "Bearer " + bearer);
    }
    if (body != null) {
      http.setDoOutput(true);
      http.setRequestProperty(
          "Content-Type",
          body.startsWith("{") ? "application/json" : "application/x-www-form-urlencoded");
      try (OutputStream out = http.getOutputStream()) {
        out.write(body.getBytes(StandardCharsets.UTF_8));
      }
    }
    int status = http.getResponseCode();
    try (InputStream in = status >= 400 ? http.getErrorStream() : http.getInputStream()) {
      String answer = in == null ? "" : new String(in.readAllBytes(), StandardCharsets.UTF_8);
      System.out.println("training: " + method + " " + path + " -> " + status);
      return answer;
    } finally {
      http.disconnect();
    }
  }

  private static void deleteRecursively(Path dir) throws IOException {
    try (Stream<Path> files = Files.walk(dir)) {
      files
          .sorted(Comparator.reverseOrder())
          .forEach(
              f -> {
                try {
                  Files.delete(f);
                } catch (IOException e) {
                  throw new UncheckedIOException(e);
                }
              });
    }
  }
}
