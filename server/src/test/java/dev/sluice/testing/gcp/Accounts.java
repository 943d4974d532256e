package dev.sluice.testing.gcp;

import static java.util.Objects.requireNonNull;

import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/** The fake's service accounts and who may impersonate whom; thread-safe. */
final class Accounts {
  private final ConcurrentHashMap<String, ServiceAccount> byEmail = new ConcurrentHashMap<>();

  /** caller email -> target emails (roles/iam.serviceAccountTokenCreator on the target). */
  private final ConcurrentHashMap<String, Set<String>> tokenCreators = new ConcurrentHashMap<>();

  ServiceAccount add(ServiceAccount account) {
    if (byEmail.putIfAbsent(account.email(), account) != null) {
      throw new IllegalArgumentException("service account " + account.email() + " already exists");
    }
    return account;
  }

  Optional<ServiceAccount> find(String email) {
    return email == null ? Optional.empty() : Optional.ofNullable(byEmail.get(email));
  }

  void allowImpersonation(String caller, String target) {
    requireNonNull(caller, "caller");
    requireNonNull(target, "target");
    if (find(target).isEmpty()) {
      throw new IllegalArgumentException("no service account " + target);
    }
    tokenCreators.merge(caller, Set.of(target), (old, added) -> union(old, added));
  }

  boolean mayImpersonate(String caller, String target) {
    return tokenCreators.getOrDefault(caller, Set.of()).contains(target);
  }

  /** The account's own IAM: roles/storage.objectAdmin on its buckets, nothing anywhere else. */
  boolean holdsObjectAdmin(String email, String bucket) {
    return find(email).map(a -> a.buckets().contains(bucket)).orElse(false);
  }

  private static Set<String> union(Set<String> a, Set<String> b) {
    java.util.HashSet<String> all = new java.util.HashSet<>(a);
    all.addAll(b);
    return Set.copyOf(all);
  }
}
