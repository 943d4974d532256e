package dev.sluice.tls;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The peers whose {@code Forwarded} / {@code X-Forwarded-*} headers are believed ({@code
 * server.trustedProxies}): IP addresses or CIDR blocks, IPv4 or IPv6, never host names (a name
 * would make trust depend on DNS). Empty by default: nobody's forwarding headers are trusted.
 */
public final class TrustedProxies {
  public static final TrustedProxies NONE = new TrustedProxies(List.of());
  private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");
  private static final Pattern IPV6 = Pattern.compile("[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*");

  private record Block(byte[] network, int bits) {
    boolean contains(byte[] address) {
      if (address.length != network.length) {
        return false;
      }
      int full = bits / 8;
      for (int i = 0; i < full; i++) {
        if (address[i] != network[i]) {
          return false;
        }
      }
      int rest = bits % 8;
      if (rest == 0) {
        return true;
      }
      int mask = 0xFF << (8 - rest);
      return (address[full] & mask) == (network[full] & mask);
    }
  }

  private final List<Block> blocks;

  private TrustedProxies(List<Block> blocks) {
    this.blocks = List.copyOf(blocks);
  }

  /** Parses entries such as {@code 10.0.0.0/8}, {@code 192.0.2.7}, {@code fd00::/8}. */
  public static TrustedProxies parse(List<String> entries, String key) {
    List<Block> blocks = new ArrayList<>();
    for (String entry : entries) {
      String text = entry == null ? "" : entry.trim();
      int slash = text.indexOf('/');
      String address = slash < 0 ? text : text.substring(0, slash);
      InetAddress parsed = literal(address);
      if (parsed == null) {
        throw new IllegalArgumentException(
            key + " entries must be IP addresses or CIDR blocks (10.0.0.0/8), got: " + entry);
      }
      byte[] network = parsed.getAddress();
      int bits = network.length * 8;
      if (slash >= 0) {
        try {
          bits = Integer.parseInt(text.substring(slash + 1));
        } catch (NumberFormatException e) {
          bits = -1;
        }
        if (bits < 0 || bits > network.length * 8) {
          throw new IllegalArgumentException(key + ": prefix length out of range in " + entry);
        }
      }
      blocks.add(new Block(network, bits));
    }
    return new TrustedProxies(blocks);
  }

  /**
   * An IPv4 or IPv6 literal, or null: never looked up as a name (an IPv6 candidate is parsed in
   * brackets, where the JDK does not fall back to DNS; an IPv4 one only with octets up to 255).
   */
  public static InetAddress literal(String text) {
    if (text == null) {
      return null;
    }
    try {
      if (IPV4.matcher(text).matches()) {
        for (String octet : text.split("\\.")) {
          if (Integer.parseInt(octet) > 255) {
            return null;
          }
        }
        return InetAddress.getByName(text);
      }
      if (text.contains(":") && IPV6.matcher(text).matches()) {
        return InetAddress.getByName("[" + text + "]");
      }
    } catch (UnknownHostException e) {
      return null;
    }
    return null;
  }

  public boolean isEmpty() {
    return blocks.isEmpty();
  }

  /** True when {@code peer} is one of the configured proxies. */
  public boolean trusts(InetAddress peer) {
    if (peer == null) {
      return false;
    }
    byte[] address = peer.getAddress();
    for (Block block : blocks) {
      if (block.contains(address)) {
        return true;
      }
    }
    return false;
  }

  public int size() {
    return blocks.size();
  }
}
