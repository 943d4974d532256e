package dev.sluice.config;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.tls.KeyMaterial;
import dev.sluice.tls.TlsSettings;
import dev.sluice.tls.TrustedProxies;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The transport keys of {@code server}: {@code tls}, {@code allowPlaintext} and {@code
 * trustedProxies}, and the rule that plaintext HTTP is served only on loopback unless the operator
 * says a TLS-terminating proxy is in front.
 */
final class TransportSection {
  static final Duration DEFAULT_RELOAD = Duration.ofSeconds(10);

  private TransportSection() {}

  /** {@code server.tls}, or null when absent; its files are read now so errors show at boot. */
  static TlsSettings tls(JsonNode node) {
    if (node == null || node.isNull()) {
      return null;
    }
    JsonNode clientAuth = node.get("clientAuth");
    Path caFile = null;
    if (clientAuth != null && !clientAuth.isNull()) {
      caFile = path(clientAuth, "caFile", "server.tls.clientAuth.caFile");
      if (caFile == null) {
        throw new ConfigException(
            "server.tls.clientAuth.caFile is required with server.tls.clientAuth (the PEM CA"
                + " certificates that management clients' certificates must chain to)");
      }
    }
    long reloadSeconds = integer(node, "reloadIntervalSeconds", DEFAULT_RELOAD.toSeconds());
    if (reloadSeconds < 1 || reloadSeconds > 3600) {
      throw new ConfigException(
          "server.tls.reloadIntervalSeconds must be between 1 and 3600, got " + reloadSeconds);
    }
    TlsSettings settings;
    try {
      settings =
          new TlsSettings(
              path(node, "certificate", "server.tls.certificate"),
              path(node, "privateKey", "server.tls.privateKey"),
              path(node, "keyStore", "server.tls.keyStore"),
              text(node, "keyStorePassword", "server.tls.keyStorePassword"),
              caFile,
              Duration.ofSeconds(reloadSeconds));
      KeyMaterial.load(settings);
      if (caFile != null) {
        KeyMaterial.trustStore(caFile, "server.tls.clientAuth.caFile");
      }
    } catch (IllegalArgumentException e) {
      throw new ConfigException(e.getMessage());
    }
    return settings;
  }

  /** {@code server.trustedProxies}: a list of IP addresses or CIDR blocks. */
  static TrustedProxies trustedProxies(JsonNode node) {
    if (node == null || node.isNull()) {
      return TrustedProxies.NONE;
    }
    if (!node.isArray()) {
      throw new ConfigException(
          "server.trustedProxies must be a list of IP addresses or CIDR blocks");
    }
    List<String> entries = new ArrayList<>();
    node.forEach(
        entry -> {
          if (!entry.isValueNode()) {
            throw new ConfigException("server.trustedProxies entries must be strings");
          }
          entries.add(entry.asText());
        });
    try {
      return TrustedProxies.parse(entries, "server.trustedProxies");
    } catch (IllegalArgumentException e) {
      throw new ConfigException(e.getMessage());
    }
  }

  /**
   * Refuses plaintext off loopback: bearer tokens, client secrets and vended storage credentials
   * would cross the network readable by anyone on the path.
   */
  static void requireSafeBind(String host, TlsSettings tls, boolean allowPlaintext) {
    if (tls != null || allowPlaintext || isLoopback(host)) {
      return;
    }
    throw new ConfigException(
        "server.host is "
            + host
            + ", which is not a loopback address, and server.tls is not configured: Sluice"
            + " refuses to serve plaintext HTTP off this machine, since its answers carry bearer"
            + " tokens and storage credentials. Either configure server.tls (certificate +"
            + " privateKey, or keyStore + keyStorePassword), or, behind a proxy that terminates"
            + " TLS, set server.allowPlaintext: true (see docs/DEPLOYMENT.md, TLS)");
  }

  static boolean isLoopback(String host) {
    try {
      InetAddress[] all = InetAddress.getAllByName(host);
      for (InetAddress address : all) {
        if (!address.isLoopbackAddress()) {
          return false;
        }
      }
      return all.length > 0;
    } catch (UnknownHostException e) {
      return false;
    }
  }

  private static Path path(JsonNode node, String field, String key) {
    String value = text(node, field, key);
    if (value == null) {
      return null;
    }
    if (value.isBlank()) {
      throw new ConfigException(key + " must not be empty");
    }
    return Path.of(value).toAbsolutePath().normalize();
  }

  private static String text(JsonNode node, String field, String key) {
    JsonNode value = node.get(field);
    if (value == null || value.isNull()) {
      return null;
    }
    if (!value.isValueNode()) {
      throw new ConfigException(key + " must be a string");
    }
    return value.asText();
  }

  private static long integer(JsonNode node, String field, long fallback) {
    JsonNode value = node.get(field);
    if (value == null || value.isNull()) {
      return fallback;
    }
    try {
      return Long.parseLong(value.asText().trim());
    } catch (NumberFormatException e) {
      throw new ConfigException(
          "server.tls." + field + " must be an integer, got: " + value.asText());
    }
  }
}
