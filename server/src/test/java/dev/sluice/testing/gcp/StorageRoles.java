package dev.sluice.testing.gcp;

import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The Cloud Storage roles the fake knows, with the storage permissions Google documents for each
 * (https://cloud.google.com/storage/docs/access-control/iam-roles); permissions of other services
 * that some of them also carry (resourcemanager.projects.*) are left out since nothing here checks
 * them.
 */
final class StorageRoles {
  static final String OBJECTS_GET = "storage.objects.get";
  static final String OBJECTS_LIST = "storage.objects.list";
  static final String OBJECTS_CREATE = "storage.objects.create";
  static final String OBJECTS_DELETE = "storage.objects.delete";

  private static final Set<String> MULTIPART =
      Set.of(
          "storage.multipartUploads.abort",
          "storage.multipartUploads.create",
          "storage.multipartUploads.list",
          "storage.multipartUploads.listParts");
  private static final Set<String> FOLDERS =
      Set.of(
          "storage.folders.create",
          "storage.folders.delete",
          "storage.folders.get",
          "storage.folders.list",
          "storage.folders.rename",
          "storage.managedFolders.create",
          "storage.managedFolders.delete",
          "storage.managedFolders.get",
          "storage.managedFolders.list");

  private static final Map<String, Set<String>> ROLES =
      Map.of(
          "roles/storage.objectViewer",
          Set.of(
              OBJECTS_GET,
              OBJECTS_LIST,
              "storage.folders.get",
              "storage.folders.list",
              "storage.managedFolders.get",
              "storage.managedFolders.list"),
          "roles/storage.legacyObjectReader",
          Set.of(OBJECTS_GET),
          "roles/storage.legacyBucketReader",
          Set.of("storage.buckets.get", OBJECTS_LIST),
          "roles/storage.objectCreator",
          Set.of(
              OBJECTS_CREATE,
              "storage.folders.create",
              "storage.managedFolders.create",
              "storage.multipartUploads.create",
              "storage.multipartUploads.abort",
              "storage.multipartUploads.listParts"),
          "roles/storage.objectUser",
          union(
              Set.of(
                  OBJECTS_CREATE,
                  OBJECTS_DELETE,
                  OBJECTS_GET,
                  OBJECTS_LIST,
                  "storage.objects.restore",
                  "storage.objects.update"),
              MULTIPART,
              FOLDERS),
          "roles/storage.objectAdmin",
          union(
              Set.of(
                  OBJECTS_CREATE,
                  OBJECTS_DELETE,
                  OBJECTS_GET,
                  OBJECTS_LIST,
                  "storage.objects.restore",
                  "storage.objects.update",
                  "storage.objects.getIamPolicy",
                  "storage.objects.setIamPolicy",
                  "storage.objects.overrideUnlockedRetention",
                  "storage.objects.setRetention"),
              MULTIPART,
              FOLDERS));

  private StorageRoles() {}

  /** The permissions of {@code role} ({@code roles/storage.X}), empty when the fake lacks it. */
  static Optional<Set<String>> permissions(String role) {
    return Optional.ofNullable(ROLES.get(role));
  }

  static Set<String> known() {
    return ROLES.keySet();
  }

  @SafeVarargs
  private static Set<String> union(Set<String>... sets) {
    java.util.HashSet<String> all = new java.util.HashSet<>();
    for (Set<String> set : sets) {
      all.addAll(set);
    }
    return Set.copyOf(all);
  }
}
