package dev.sluice.http;

import dev.sluice.tls.TrustedProxies;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * Where a request came from as the client saw it: the scheme and host it used and its address. From
 * the connection itself, unless the TCP peer is a trusted proxy ({@code server.trustedProxies});
 * then from its {@code Forwarded} (RFC 7239) or, without one, {@code X-Forwarded-For/-Proto/-Host}.
 * The forwarded hops are walked from the right (the element the peer wrote) while the hop's sender
 * is trusted too, so a client cannot pose as another by prepending an element of its own. From any
 * other peer these headers are ignored.
 */
public record RequestOrigin(String scheme, String host, InetAddress clientAddress) {

  /** {@code scheme://host}: the base of absolute URLs given back to this client. */
  public String baseUrl() {
    return scheme + "://" + host;
  }

  static RequestOrigin resolve(
      boolean secure,
      String hostHeader,
      InetAddress peer,
      Function<String, String> headers,
      TrustedProxies proxies) {
    String scheme = secure ? "https" : "http";
    String host = plausibleHost(hostHeader) ? hostHeader : "";
    if (peer == null || !proxies.trusts(peer)) {
      return new RequestOrigin(scheme, host, peer);
    }
    String forwarded = headers.apply("Forwarded");
    List<Hop> hops = forwarded != null ? rfc7239(forwarded) : xForwarded(headers);
    InetAddress client = peer;
    Hop chosen = null;
    for (int i = hops.size() - 1; i >= 0; i--) {
      Hop hop = hops.get(i);
      chosen = hop;
      InetAddress sender = literal(hop.forAddress());
      if (sender == null) {
        break; // an obfuscated or unknown sender: the trail ends here
      }
      client = sender;
      if (!proxies.trusts(sender)) {
        break;
      }
    }
    if (chosen != null) {
      if (chosen.proto() != null) {
        String proto = chosen.proto().toLowerCase(Locale.ROOT);
        if (proto.equals("http") || proto.equals("https")) {
          scheme = proto;
        }
      }
      if (plausibleHost(chosen.host())) {
        host = chosen.host();
      }
    }
    return new RequestOrigin(scheme, host, client);
  }

  /**
   * A host and port as a URL may carry them: 1 to 255 of {@code A-Z a-z 0-9 . - [ ] :}. A loop, not
   * a regular expression: it runs on every request (issue 42).
   */
  static boolean plausibleHost(String host) {
    if (host == null || host.isEmpty() || host.length() > 255) {
      return false;
    }
    for (int i = 0; i < host.length(); i++) {
      char c = host.charAt(i);
      boolean ok =
          (c >= 'a' && c <= 'z')
              || (c >= 'A' && c <= 'Z')
              || (c >= '0' && c <= '9')
              || c == '.'
              || c == '-'
              || c == '['
              || c == ']'
              || c == ':';
      if (!ok) {
        return false;
      }
    }
    return true;
  }

  private record Hop(String forAddress, String proto, String host) {}

  /** {@code Forwarded: for=192.0.2.60;proto=https;host=example.com, for=10.0.0.1}. */
  private static List<Hop> rfc7239(String header) {
    List<Hop> hops = new ArrayList<>();
    for (String element : header.split(",")) {
      String forAddress = null;
      String proto = null;
      String host = null;
      for (String pair : element.split(";")) {
        int eq = pair.indexOf('=');
        if (eq < 0) {
          continue;
        }
        String name = pair.substring(0, eq).trim().toLowerCase(Locale.ROOT);
        String value = unquote(pair.substring(eq + 1).trim());
        switch (name) {
          case "for" -> forAddress = value;
          case "proto" -> proto = value;
          case "host" -> host = value;
          default -> {
            // by= and extensions carry nothing Sluice uses
          }
        }
      }
      hops.add(new Hop(forAddress, proto, host));
    }
    return hops;
  }

  /**
   * {@code X-Forwarded-For: client, proxy1} with {@code X-Forwarded-Proto/-Host}: proto and host
   * are taken as one value each (the last one, the nearest proxy's) and belong to the first hop.
   */
  private static List<Hop> xForwarded(Function<String, String> headers) {
    String xff = headers.apply("X-Forwarded-For");
    String proto = last(headers.apply("X-Forwarded-Proto"));
    String host = last(headers.apply("X-Forwarded-Host"));
    List<Hop> hops = new ArrayList<>();
    if (xff == null) {
      if (proto != null || host != null) {
        hops.add(new Hop(null, proto, host));
      }
      return hops;
    }
    // Proto and host describe the client's own connection, whichever hop the walk stops at.
    for (String address : xff.split(",")) {
      hops.add(new Hop(address.trim(), proto, host));
    }
    return hops;
  }

  private static String last(String header) {
    if (header == null) {
      return null;
    }
    String[] values = header.split(",");
    String value = values[values.length - 1].trim();
    return value.isEmpty() ? null : value;
  }

  private static String unquote(String value) {
    return value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"")
        ? value.substring(1, value.length() - 1)
        : value;
  }

  /**
   * An IP literal ({@code 192.0.2.1}, {@code [2001:db8::1]:443}, {@code 192.0.2.1:8080}), or null.
   */
  static InetAddress literal(String value) {
    if (value == null || value.isEmpty()) {
      return null;
    }
    String text = value;
    if (text.startsWith("[")) {
      int close = text.indexOf(']');
      if (close < 0) {
        return null;
      }
      text = text.substring(1, close);
    } else if (text.indexOf(':') == text.lastIndexOf(':') && text.indexOf(':') > 0) {
      text = text.substring(0, text.indexOf(':')); // IPv4 with a port
    }
    // Literals only, never a name: resolving one would make trust depend on DNS.
    return TrustedProxies.literal(text);
  }
}
