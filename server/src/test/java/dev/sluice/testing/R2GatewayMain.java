package dev.sluice.testing;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;

/**
 * Runs an {@link R2Gateway} as its own process, for clients that cannot share a JVM with the
 * server's test classes (the e2e module's Spark). The account id and parent key pair come from the
 * environment ({@value #ACCOUNT_ENV}, {@value #KEY_ID_ENV}, {@value #SECRET_ENV}), the RGW bed from
 * the {@code SLUICE_TEST_RGW_*} variables as for {@link CephRgw}.
 *
 * <p>A line protocol on stdin/stdout, every answer prefixed with {@value #PREFIX} (the log shares
 * stdout): {@code READY <endpoint>} once listening; {@code counters} answers {@code COUNTERS
 * <allowed> <parentRequests> <refusals>}; {@code refusals} answers one {@code REFUSAL <line>} per
 * refusal then {@code END}; {@code quit} or end of input (the parent went away) stops the gateway.
 */
public final class R2GatewayMain {
  public static final String ACCOUNT_ENV = "R2_GATEWAY_ACCOUNT_ID";
  public static final String KEY_ID_ENV = "R2_GATEWAY_PARENT_KEY_ID";
  public static final String SECRET_ENV = "R2_GATEWAY_PARENT_SECRET";
  public static final String PREFIX = "R2GATEWAY ";

  private R2GatewayMain() {}

  /** Exits 0 after {@code quit} or end of input, 1 if the gateway could not start or failed. */
  public static void main(String[] args) {
    int status = 0;
    try {
      serve(System.out);
    } catch (IOException | RuntimeException e) {
      e.printStackTrace();
      status = 1;
    }
    // Exit even if a library left a non-daemon thread behind.
    System.exit(status);
  }

  private static void serve(PrintStream out) throws IOException {
    try (R2Gateway gateway =
        R2Gateway.start(env(ACCOUNT_ENV), env(KEY_ID_ENV), env(SECRET_ENV), CephRgw.bed())) {
      answer(out, "READY " + gateway.endpoint());
      BufferedReader in = new BufferedReader(new InputStreamReader(System.in, UTF_8));
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        switch (line.trim()) {
          case "counters" ->
              answer(
                  out,
                  "COUNTERS "
                      + gateway.allowed()
                      + " "
                      + gateway.parentRequests()
                      + " "
                      + gateway.refusals());
          case "refusals" -> {
            gateway.refusalLog().forEach(r -> answer(out, "REFUSAL " + r.replace('\n', ' ')));
            answer(out, "END");
          }
          case "quit" -> {
            return;
          }
          default -> answer(out, "ERROR unknown command: " + line);
        }
      }
    }
  }

  private static void answer(PrintStream out, String line) {
    synchronized (out) {
      out.println(PREFIX + line);
      out.flush();
    }
  }

  private static String env(String name) {
    String value = System.getenv(name);
    if (value == null || value.isBlank()) {
      throw new IllegalStateException(name + " is not set");
    }
    return value;
  }
}
