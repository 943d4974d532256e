package dev.sluice.auth;

import static java.util.Objects.requireNonNull;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.crypto.MACVerifier;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import dev.sluice.store.SigningKey;
import dev.sluice.store.Store;
import java.text.ParseException;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.Date;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.LongAdder;
import org.apache.iceberg.exceptions.NotAuthorizedException;

/**
 * Issues and verifies the bearer tokens of Sluice's OAuth2 endpoint: HS256 JWTs signed with a key
 * from the store (so every replica verifies every token), carrying the principal, its client id,
 * the requested scope and an expiry.
 */
public final class TokenService {
  public static final String ISSUER = "sluice";
  private static final String CLIENT_ID_CLAIM = "client_id";
  private static final String SCOPE_CLAIM = "scope";
  private static final String CREDENTIAL_VERSION_CLAIM = "cv";
  private static final String PRINCIPAL_ID_CLAIM = "pid";
  // RFC 8693 section 4.1: the party that acts for the subject.
  private static final String ACTOR_CLAIM = "act";
  private static final String EXTERNAL_ROLES_CLAIM = "ext";
  private static final String LIMIT_CLAIM = "lim";

  private final Store store;
  private final Duration lifetime;
  private final Clock clock;

  /** How often a replica re-reads the keys, so a rotation made elsewhere is used within this. */
  static final long REFRESH_MS = 30_000;

  /**
   * At most one re-read of the keys per this interval for tokens naming a key we do not know: such
   * a token costs no database read (an unauthenticated flood of them cannot hammer the store), and
   * a key rotated on another replica is still found at once, or within this.
   */
  static final long UNKNOWN_KID_RELOAD_MS = 5_000;

  // Verifying is a pure function of the token and its key, so a token seen valid stays valid
  // until it expires (checked on every call) or its key is retired (the cache is then emptied,
  // here at once and on other replicas at their next read of the keys). Saves the HMAC and the
  // JSON parse on every request a client makes with the same token.
  private final Cache<String, AuthenticatedPrincipal> verified =
      Caffeine.newBuilder().maximumSize(10_000).expireAfterWrite(Duration.ofMinutes(1)).build();
  private volatile Map<String, byte[]> keys;
  private volatile String activeKid;
  private volatile long loadedAtMs;
  private final Object unknownKidLock = new Object();
  private long unknownKidReloadAtMs =
      Long.MIN_VALUE / 2; // guarded by unknownKidLock; no overflow in now - it
  private final LongAdder keyReads = new LongAdder();

  public TokenService(Store store, Duration lifetime, Clock clock) {
    this.store = requireNonNull(store, "store");
    this.lifetime = requireNonNull(lifetime, "lifetime");
    this.clock = requireNonNull(clock, "clock");
  }

  /** Ensures a signing key exists (the first replica to start creates it) and loads all keys. */
  public void start() {
    List<SigningKey> existing = readKeys();
    load(existing.isEmpty() ? store.ensureSigningKey(newKey()) : existing);
  }

  /**
   * Adds a new signing key, which becomes the one new tokens are signed with: here at once, on
   * other replicas within {@link #REFRESH_MS}. Older keys stay valid for verification, so tokens
   * already issued keep working: no downtime. Returns the new key's id.
   */
  public String rotate() {
    // Strictly newer than the newest key: keys are ordered by creation time, and two rotations
    // in one millisecond must not leave which one signs new tokens to the order of their ids.
    List<SigningKey> existing = readKeys();
    long after = existing.isEmpty() ? Long.MIN_VALUE : existing.get(0).createdAt() + 1;
    SigningKey key = newKey(Math.max(clock.millis(), after));
    load(store.ensureSigningKey(key));
    return key.kid();
  }

  /** The signing keys, newest first: the first signs new tokens. No key material. */
  public record KeyInfo(String kid, long createdAt, boolean active) {}

  public List<KeyInfo> keys() {
    List<SigningKey> all = readKeys();
    List<KeyInfo> out = new java.util.ArrayList<>();
    for (int i = 0; i < all.size(); i++) {
      out.add(new KeyInfo(all.get(i).kid(), all.get(i).createdAt(), i == 0));
    }
    return out;
  }

  /**
   * Retires key {@code kid}: every token and signing grant it signed is refused, here at once and
   * on other replicas within {@link #REFRESH_MS}. The key new tokens are signed with cannot be
   * retired (rotate first); {@link NoSuchElementException} for a key that does not exist.
   */
  public void retire(String kid) {
    List<SigningKey> all = readKeys();
    if (all.stream().noneMatch(k -> k.kid().equals(kid))) {
      throw new java.util.NoSuchElementException("No signing key " + kid);
    }
    if (all.get(0).kid().equals(kid)) {
      throw new IllegalStateException(
          "Signing key " + kid + " signs new tokens: rotate to a new key before retiring it");
    }
    store.deleteSigningKey(kid);
    load(readKeys());
  }

  private SigningKey newKey() {
    return newKey(clock.millis());
  }

  private SigningKey newKey(long createdAt) {
    byte[] material = new byte[32];
    new java.security.SecureRandom().nextBytes(material);
    return new SigningKey(
        "k-" + UUID.randomUUID(), Base64.getEncoder().encodeToString(material), createdAt);
  }

  /** How many times this service has read the signing keys from the store. */
  public long keyReads() {
    return keyReads.sum();
  }

  private List<SigningKey> readKeys() {
    keyReads.increment();
    return store.signingKeys();
  }

  private void refreshIfStale() {
    if (clock.millis() - loadedAtMs > REFRESH_MS) {
      try {
        load(readKeys());
      } catch (RuntimeException e) {
        loadedAtMs = clock.millis(); // keep the keys we have while the database is away
      }
    }
  }

  private void load(List<SigningKey> all) {
    Map<String, byte[]> loaded = new HashMap<>();
    for (SigningKey key : all) {
      loaded.put(key.kid(), Base64.getDecoder().decode(key.material()));
    }
    Map<String, byte[]> before = this.keys;
    this.keys = loaded;
    if (before != null && !loaded.keySet().containsAll(before.keySet())) {
      // A key was retired: tokens it signed must not live on in the cache of verified tokens.
      verified.invalidateAll();
    }
    this.activeKid = all.get(0).kid();
    this.loadedAtMs = clock.millis();
  }

  public Duration lifetime() {
    return lifetime;
  }

  /** A bearer token for principal {@code principal} (whose id is {@code principalId}). */
  public String issue(
      String principal,
      String principalId,
      String clientId,
      List<String> scopes,
      long credentialVersion) {
    requireNonNull(principalId, "principalId");
    refreshIfStale();
    long now = clock.millis();
    JWTClaimsSet claims =
        new JWTClaimsSet.Builder()
            .issuer(ISSUER)
            .subject(principal)
            .claim(CLIENT_ID_CLAIM, clientId)
            .claim(SCOPE_CLAIM, String.join(" ", scopes))
            .claim(CREDENTIAL_VERSION_CLAIM, credentialVersion)
            .claim(PRINCIPAL_ID_CLAIM, principalId)
            .issueTime(new Date(now))
            .expirationTime(new Date(now + lifetime.toMillis()))
            .jwtID(UUID.randomUUID().toString())
            .build();
    return signed(claims);
  }

  /**
   * A delegated bearer token: {@code user} (a principal, or an external identity with its roles)
   * acted for by {@code user.actor()}, with {@code scopes}, expiring at {@code expiresAtMs} (the
   * caller bounds it by the configured lifetime and the user's token).
   */
  public String issueDelegated(
      AuthenticatedPrincipal user, String clientId, List<String> scopes, long expiresAtMs) {
    AuthenticatedPrincipal.Actor actor = requireNonNull(user.actor(), "user.actor");
    refreshIfStale();
    long now = clock.millis();
    JWTClaimsSet.Builder claims =
        new JWTClaimsSet.Builder()
            .issuer(ISSUER)
            .subject(user.name())
            .claim(CLIENT_ID_CLAIM, clientId)
            .claim(SCOPE_CLAIM, String.join(" ", scopes))
            .claim(CREDENTIAL_VERSION_CLAIM, user.credentialVersion())
            .claim(
                ACTOR_CLAIM,
                Map.of(
                    "sub",
                    actor.name(),
                    PRINCIPAL_ID_CLAIM,
                    actor.principalId(),
                    CREDENTIAL_VERSION_CLAIM,
                    actor.credentialVersion()))
            .issueTime(new Date(now))
            .expirationTime(new Date(expiresAtMs))
            .jwtID(UUID.randomUUID().toString());
    if (user.externalRoles() != null) {
      claims.claim(EXTERNAL_ROLES_CLAIM, user.externalRoles());
    } else {
      claims.claim(PRINCIPAL_ID_CLAIM, requireNonNull(user.principalId(), "user.principalId"));
    }
    if (user.limitMs() > 0) {
      claims.claim(LIMIT_CLAIM, user.limitMs());
    }
    return signed(claims.build());
  }

  /**
   * Signs {@code claims} with the active key, for Sluice's own tokens that are not bearer tokens (a
   * staged table's signing grant). Their issuer must differ from {@link #ISSUER}, so {@link
   * #verify} refuses them as bearer tokens, and they must expire.
   */
  public String signOther(JWTClaimsSet claims) {
    if (ISSUER.equals(claims.getIssuer()) || claims.getIssuer() == null) {
      throw new IllegalArgumentException("Another issuer than " + ISSUER + " is required");
    }
    if (claims.getExpirationTime() == null) {
      throw new IllegalArgumentException("An expiry is required");
    }
    refreshIfStale();
    return signed(claims);
  }

  /**
   * The claims of a token {@link #signOther} made for {@code issuer}, once its signature, issuer
   * and expiry are checked; {@link NotAuthorizedException} on any failure.
   */
  public JWTClaimsSet verifyOther(String token, String issuer) {
    if (ISSUER.equals(issuer)) {
      throw new IllegalArgumentException("Bearer tokens are verified with verify()");
    }
    JWTClaimsSet claims = verifiedClaims(token);
    if (!issuer.equals(claims.getIssuer()) || claims.getExpirationTime() == null) {
      throw new NotAuthorizedException("Invalid token: missing or wrong claims");
    }
    if (claims.getExpirationTime().getTime() <= clock.millis()) {
      throw new NotAuthorizedException("Token expired");
    }
    return claims;
  }

  /** {@code claims} as an HS256 JWT signed with the active key, which the header names. */
  private String signed(JWTClaimsSet claims) {
    String kid = activeKid;
    SignedJWT jwt =
        new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.HS256).keyID(kid).build(), claims);
    try {
      jwt.sign(new MACSigner(keys.get(kid)));
    } catch (JOSEException e) {
      throw new IllegalStateException("Cannot sign token", e);
    }
    return jwt.serialize();
  }

  /** True when the token's (unverified) issuer is this server. */
  public static boolean issuedHere(String token) {
    try {
      return ISSUER.equals(SignedJWT.parse(token).getJWTClaimsSet().getIssuer());
    } catch (ParseException e) {
      return false;
    }
  }

  /** Verifies signature, issuer and expiry; {@link NotAuthorizedException} on any failure. */
  public AuthenticatedPrincipal verify(String token) {
    // A key retired on another replica must stop verifying here too: re-read the keys when stale.
    refreshIfStale();
    AuthenticatedPrincipal known = verified.getIfPresent(token);
    if (known == null) {
      known = verifySignatureAndClaims(token);
      verified.put(token, known);
    }
    if (known.expiresAtMs() <= clock.millis()) {
      throw new NotAuthorizedException("Token expired");
    }
    return known;
  }

  /** The claims of a token signed with one of our keys (any issuer, any expiry). */
  private JWTClaimsSet verifiedClaims(String token) {
    SignedJWT jwt;
    JWTClaimsSet claims;
    try {
      jwt = SignedJWT.parse(token);
      claims = jwt.getJWTClaimsSet();
    } catch (ParseException e) {
      throw new NotAuthorizedException("Invalid token: not a signed JWT");
    }
    if (!JWSAlgorithm.HS256.equals(jwt.getHeader().getAlgorithm())) {
      throw new NotAuthorizedException("Invalid token: unexpected algorithm");
    }
    byte[] key = keyFor(jwt.getHeader().getKeyID());
    try {
      if (key == null || !jwt.verify(new MACVerifier(key))) {
        throw new NotAuthorizedException("Invalid token: bad signature");
      }
    } catch (JOSEException e) {
      throw new NotAuthorizedException("Invalid token: bad signature");
    }
    return claims;
  }

  private AuthenticatedPrincipal verifySignatureAndClaims(String token) {
    JWTClaimsSet claims = verifiedClaims(token);
    if (!ISSUER.equals(claims.getIssuer())
        || claims.getSubject() == null
        || claims.getExpirationTime() == null) {
      throw new NotAuthorizedException("Invalid token: missing or wrong claims");
    }
    long expiresAt = claims.getExpirationTime().getTime();
    if (expiresAt <= clock.millis()) {
      throw new NotAuthorizedException("Token expired");
    }
    Object clientId = claims.getClaim(CLIENT_ID_CLAIM);
    Object scope = claims.getClaim(SCOPE_CLAIM);
    List<String> scopes =
        scope instanceof String s && !s.isBlank() ? List.of(s.trim().split("\\s+")) : List.of();
    Object version = claims.getClaim(CREDENTIAL_VERSION_CLAIM);
    Object id = claims.getClaim(PRINCIPAL_ID_CLAIM);
    String client = clientId instanceof String c ? c : "";
    AuthenticatedPrincipal principal =
        claims.getClaim(EXTERNAL_ROLES_CLAIM) instanceof List<?> roles
            // An external user's delegated token: its roles as the issuer's claims named them.
            ? new AuthenticatedPrincipal(
                claims.getSubject(), client, scopes, expiresAt, strings(roles), 0, null, null, 0)
            : AuthenticatedPrincipal.internal(
                claims.getSubject(),
                id instanceof String i ? i : null,
                client,
                scopes,
                expiresAt,
                version instanceof Number n ? n.longValue() : -1);
    Object act = claims.getClaim(ACTOR_CLAIM);
    if (act == null) {
      if (principal.externalRoles() != null) {
        throw new NotAuthorizedException("Invalid token: external roles without an actor");
      }
      return principal;
    }
    if (!(act instanceof Map<?, ?> actor)
        || !(actor.get("sub") instanceof String actorName)
        || !(actor.get(PRINCIPAL_ID_CLAIM) instanceof String actorId)
        || !(actor.get(CREDENTIAL_VERSION_CLAIM) instanceof Number actorVersion)) {
      throw new NotAuthorizedException("Invalid token: malformed actor claim");
    }
    long limit = claims.getClaim(LIMIT_CLAIM) instanceof Number l ? l.longValue() : 0;
    return principal.actedForBy(
        new AuthenticatedPrincipal.Actor(actorName, actorId, actorVersion.longValue()), limit);
  }

  private static List<String> strings(List<?> values) {
    List<String> out = new java.util.ArrayList<>();
    for (Object v : values) {
      if (!(v instanceof String s)) {
        throw new NotAuthorizedException("Invalid token: malformed roles claim");
      }
      out.add(s);
    }
    return out;
  }

  /** A signing key: its id and material (for {@link Sealer}, which derives a key of its own). */
  record Key(String kid, byte[] material) {}

  /** The key new tokens are signed with. */
  Key activeKey() {
    refreshIfStale();
    String kid = activeKid;
    return new Key(kid, keys.get(kid));
  }

  /** The material of key {@code kid}, or null when there is no such key (or it was retired). */
  byte[] material(String kid) {
    refreshIfStale();
    return keyFor(kid);
  }

  private byte[] keyFor(String kid) {
    if (kid == null) {
      return null;
    }
    byte[] key = keys.get(kid);
    if (key != null) {
      return key;
    }
    // Maybe a key added by another replica after our last read. Threads that miss together
    // wait for one read rather than each doing their own.
    synchronized (unknownKidLock) {
      key = keys.get(kid);
      long now = clock.millis();
      if (key == null && now - unknownKidReloadAtMs >= UNKNOWN_KID_RELOAD_MS) {
        unknownKidReloadAtMs = now;
        load(readKeys());
        key = keys.get(kid);
      }
    }
    return key;
  }
}
