package dev.sluice.tls;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * PEM files read with the JDK only: certificates through {@link CertificateFactory}, private keys
 * in PKCS#8 ({@code BEGIN PRIVATE KEY}, RSA or EC) or an RSA key in PKCS#1 ({@code BEGIN RSA
 * PRIVATE KEY}, what older openssl writes), which is re-wrapped as PKCS#8 (a fixed DER header, no
 * cryptography). Encrypted keys and SEC1 EC keys are refused with the openssl command that converts
 * them.
 */
final class Pem {
  private static final Pattern BLOCK =
      Pattern.compile("-----BEGIN ([A-Z0-9 ]+)-----\\s*([A-Za-z0-9+/=\\s]*?)\\s*-----END \\1-----");
  private static final String CONVERT =
      "convert it with `openssl pkcs8 -topk8 -nocrypt -in key.pem -out key-pkcs8.pem`";

  private Pem() {}

  /** The certificates of a PEM file in order (the leaf first, then its chain). */
  static List<X509Certificate> certificates(byte[] pem, String what) {
    List<X509Certificate> out = new ArrayList<>();
    try {
      CertificateFactory factory = CertificateFactory.getInstance("X.509");
      for (Block block : blocks(pem)) {
        if (block.type().equals("CERTIFICATE")) {
          for (Certificate c :
              factory.generateCertificates(new ByteArrayInputStream(block.der()))) {
            out.add((X509Certificate) c);
          }
        }
      }
    } catch (GeneralSecurityException e) {
      throw new IllegalArgumentException(what + " holds an unreadable certificate: " + e, e);
    }
    if (out.isEmpty()) {
      throw new IllegalArgumentException(what + " holds no PEM certificate (BEGIN CERTIFICATE)");
    }
    return out;
  }

  /** The one private key of a PEM file. */
  static PrivateKey privateKey(byte[] pem, String what) {
    for (Block block : blocks(pem)) {
      switch (block.type()) {
        case "PRIVATE KEY":
          return pkcs8(block.der(), what);
        case "RSA PRIVATE KEY":
          return pkcs8(rsaPkcs1ToPkcs8(block.der()), what);
        case "ENCRYPTED PRIVATE KEY":
          throw new IllegalArgumentException(
              what + " is an encrypted private key, which is not supported: " + CONVERT);
        case "EC PRIVATE KEY":
          throw new IllegalArgumentException(
              what + " is an EC key in SEC1 form, which is not supported: " + CONVERT);
        default:
          // other blocks (EC PARAMETERS, a certificate in the same file) are skipped
      }
    }
    throw new IllegalArgumentException(what + " holds no PEM private key (BEGIN PRIVATE KEY)");
  }

  private static PrivateKey pkcs8(byte[] der, String what) {
    PKCS8EncodedKeySpec spec = new PKCS8EncodedKeySpec(der);
    for (String algorithm : List.of("RSA", "EC", "Ed25519", "Ed448")) {
      try {
        return KeyFactory.getInstance(algorithm).generatePrivate(spec);
      } catch (GeneralSecurityException e) {
        // try the next algorithm
      }
    }
    throw new IllegalArgumentException(
        what + " holds a private key that is neither RSA, EC nor EdDSA");
  }

  /**
   * PrivateKeyInfo { version 0, AlgorithmIdentifier rsaEncryption NULL, OCTET STRING pkcs1 }: the
   * DER encoding of PKCS#8 around a PKCS#1 RSAPrivateKey.
   */
  static byte[] rsaPkcs1ToPkcs8(byte[] pkcs1) {
    byte[] version = {0x02, 0x01, 0x00};
    byte[] rsaAlgorithm = {
      0x30,
      0x0d,
      0x06,
      0x09,
      0x2a,
      (byte) 0x86,
      0x48,
      (byte) 0x86,
      (byte) 0xf7,
      0x0d,
      0x01,
      0x01,
      0x01,
      0x05,
      0x00
    };
    byte[] octets = tlv(0x04, pkcs1);
    byte[] body = concat(version, rsaAlgorithm, octets);
    return tlv(0x30, body);
  }

  private static byte[] tlv(int tag, byte[] value) {
    int n = value.length;
    byte[] length;
    if (n < 0x80) {
      length = new byte[] {(byte) n};
    } else if (n < 0x100) {
      length = new byte[] {(byte) 0x81, (byte) n};
    } else if (n < 0x10000) {
      length = new byte[] {(byte) 0x82, (byte) (n >> 8), (byte) n};
    } else {
      length = new byte[] {(byte) 0x83, (byte) (n >> 16), (byte) (n >> 8), (byte) n};
    }
    return concat(new byte[] {(byte) tag}, length, value);
  }

  private static byte[] concat(byte[]... parts) {
    int size = 0;
    for (byte[] p : parts) {
      size += p.length;
    }
    byte[] out = new byte[size];
    int at = 0;
    for (byte[] p : parts) {
      System.arraycopy(p, 0, out, at, p.length);
      at += p.length;
    }
    return out;
  }

  private record Block(String type, byte[] der) {}

  private static List<Block> blocks(byte[] pem) {
    List<Block> out = new ArrayList<>();
    Matcher m = BLOCK.matcher(new String(pem, StandardCharsets.US_ASCII));
    while (m.find()) {
      try {
        out.add(new Block(m.group(1), Base64.getMimeDecoder().decode(m.group(2))));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("a PEM block " + m.group(1) + " is not valid base64");
      }
    }
    return out;
  }

  /** Read errors as the caller's message. */
  static IllegalArgumentException unreadable(String what, IOException e) {
    return new IllegalArgumentException("cannot read " + what + ": " + e.getMessage(), e);
  }
}
