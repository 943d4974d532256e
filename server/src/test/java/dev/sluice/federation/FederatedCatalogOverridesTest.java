package dev.sluice.federation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.catalog.SluiceCatalog;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A federated catalog answers every content method from its remote: a public or protected method of
 * {@link SluiceCatalog} (or of the iceberg-core classes it extends) left to the store-backed
 * implementation would read or write Sluice's store for a catalog whose content is not there. Only
 * the methods below are the same for both.
 */
class FederatedCatalogOverridesTest {
  /** Methods whose inherited answer is right for a federated catalog too. */
  private static final Set<String> SHARED =
      Set.of(
          "name",
          "properties",
          "settings",
          "io",
          "storageFor",
          "namespaceStorage",
          "metadataOf",
          "newCreation",
          "initialize",
          "close",
          "toString",
          "isValidIdentifier",
          "isValidMetadataIdentifier",
          "metricsReporter",
          // Catalog / SupportsNamespaces defaults built on methods overridden here.
          "createTable",
          "newCreateTableTransaction",
          "newReplaceTableTransaction",
          "dropTable(TableIdentifier)",
          "createNamespace(Namespace)",
          "listNamespaces()",
          "invalidateView",
          "setConf");

  @Test
  void everyContentMethodIsTheRemotes() {
    List<String> inherited = new ArrayList<>();
    for (Class<?> type = SluiceCatalog.class; type != Object.class; type = type.getSuperclass()) {
      for (Method method : type.getDeclaredMethods()) {
        int modifiers = method.getModifiers();
        if (Modifier.isStatic(modifiers)
            || Modifier.isPrivate(modifiers)
            || method.isSynthetic()
            || !(Modifier.isPublic(modifiers) || Modifier.isProtected(modifiers))) {
          continue;
        }
        if (SHARED.contains(method.getName()) || SHARED.contains(signature(method))) {
          continue;
        }
        if (!declaredByFederated(method)) {
          inherited.add(type.getSimpleName() + "." + signature(method));
        }
      }
    }
    assertThat(inherited).as("content methods FederatedCatalog leaves to the store").isEmpty();
  }

  private static boolean declaredByFederated(Method method) {
    try {
      FederatedCatalog.class.getDeclaredMethod(method.getName(), method.getParameterTypes());
      return true;
    } catch (NoSuchMethodException e) {
      return false;
    }
  }

  private static String signature(Method method) {
    List<String> types = new ArrayList<>();
    for (Class<?> type : method.getParameterTypes()) {
      types.add(type.getSimpleName());
    }
    return method.getName() + "(" + String.join(", ", types) + ")";
  }
}
