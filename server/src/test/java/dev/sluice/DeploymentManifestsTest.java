package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.sluice.config.EnvironmentKeys;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The Kubernetes manifests and the Compose file of docs/deploy, which docs/CONTAINER.md tells
 * operators to apply, are what they claim. Each manifest binds to Kubernetes' own API types
 * (fabric8's model, generated from Kubernetes' OpenAPI document) with no field left over, so a
 * misspelt field fails here rather than in a cluster; the probes are {@code /healthz} and {@code
 * /readyz}; the Deployment runs as the image's user on the image's port, takes its secrets from the
 * Secret; Service and PodDisruptionBudget select its pods; and every {@code SLUICE_} variable the
 * files set is one Sluice reads.
 */
class DeploymentManifestsTest {
  private static final Path DEPLOY = Path.of("..", "docs", "deploy");
  private static final Path CONTAINERFILE = Path.of("src", "container", "Containerfile");
  private static final ObjectMapper YAML =
      new YAMLMapper().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

  /** Read by Bootstrap, not a config key: the root principal's first credentials. */
  private static final Set<String> NOT_CONFIG_KEYS = Set.of("SLUICE_BOOTSTRAP_CREDENTIALS");

  private static <T> T manifest(String file, Class<T> type) throws Exception {
    T bound = YAML.readValue(DEPLOY.resolve("kubernetes").resolve(file).toFile(), type);
    List<String> unknown = new ArrayList<>();
    leftOver(bound, type.getSimpleName(), unknown);
    assertThat(unknown).as("fields of %s that %s has no such field for", file, type).isEmpty();
    return bound;
  }

  /** Collects, under {@code path}, the fields each fabric8 object kept as "additional". */
  private static void leftOver(Object value, String path, List<String> out) throws Exception {
    if (value == null) {
      return;
    }
    if (value instanceof Collection<?> items) {
      int i = 0;
      for (Object item : items) {
        leftOver(item, path + "[" + i++ + "]", out);
      }
      return;
    }
    if (value instanceof Map<?, ?> map) {
      for (Map.Entry<?, ?> e : map.entrySet()) {
        leftOver(e.getValue(), path + "." + e.getKey(), out);
      }
      return;
    }
    if (!value.getClass().getName().startsWith("io.fabric8.")) {
      return;
    }
    for (Method getter : value.getClass().getMethods()) {
      if (getter.getParameterCount() != 0
          || Modifier.isStatic(getter.getModifiers())
          || !getter.getName().startsWith("get")
          || getter.getDeclaringClass() == Object.class) {
        continue;
      }
      Object child = getter.invoke(value);
      if (getter.getName().equals("getAdditionalProperties")) {
        if (child instanceof Map<?, ?> extra && !extra.isEmpty()) {
          extra.keySet().forEach(k -> out.add(path + "." + k));
        }
      } else {
        leftOver(child, path + "." + getter.getName().substring(3), out);
      }
    }
  }

  @Test
  void theKubernetesManifestsBindToKubernetesTypesAndAgreeWithEachOtherAndTheImage()
      throws Exception {
    Deployment deployment = manifest("deployment.yaml", Deployment.class);
    Service service = manifest("service.yaml", Service.class);
    Secret secret = manifest("secret.yaml", Secret.class);
    PodDisruptionBudget pdb = manifest("pdb.yaml", PodDisruptionBudget.class);

    Map<String, String> podLabels = deployment.getSpec().getTemplate().getMetadata().getLabels();
    assertThat(deployment.getSpec().getSelector().getMatchLabels()).isEqualTo(podLabels);
    assertThat(service.getSpec().getSelector()).isEqualTo(podLabels);
    assertThat(pdb.getSpec().getSelector().getMatchLabels()).isEqualTo(podLabels);
    assertThat(pdb.getSpec().getMinAvailable().getIntVal())
        .isLessThan(deployment.getSpec().getReplicas());

    Container sluice = deployment.getSpec().getTemplate().getSpec().getContainers().get(0);
    assertThat(sluice.getImage()).endsWith("/sluice:" + BuildInfo.version());
    assertThat(sluice.getLivenessProbe().getHttpGet().getPath()).isEqualTo("/healthz");
    assertThat(sluice.getReadinessProbe().getHttpGet().getPath()).isEqualTo("/readyz");
    assertThat(sluice.getStartupProbe().getHttpGet().getPath()).isEqualTo("/healthz");
    assertThat(sluice.getEnvFrom().get(0).getSecretRef().getName())
        .isEqualTo(secret.getMetadata().getName());

    String containerfile = Files.readString(CONTAINERFILE);
    Matcher user = Pattern.compile("(?m)^USER (\\d+):(\\d+)$").matcher(containerfile);
    assertThat(user.find()).as("the Containerfile's USER").isTrue();
    var pod = deployment.getSpec().getTemplate().getSpec().getSecurityContext();
    assertThat(pod.getRunAsNonRoot()).isTrue();
    assertThat(pod.getRunAsUser()).isEqualTo(Long.parseLong(user.group(1)));
    assertThat(pod.getRunAsGroup()).isEqualTo(Long.parseLong(user.group(2)));
    Matcher exposed = Pattern.compile("(?m)^EXPOSE (\\d+)$").matcher(containerfile);
    assertThat(exposed.find()).isTrue();
    assertThat(sluice.getPorts().get(0).getContainerPort())
        .isEqualTo(Integer.parseInt(exposed.group(1)));
    assertThat(service.getSpec().getPorts().get(0).getTargetPort().getStrVal())
        .isEqualTo(sluice.getPorts().get(0).getName());

    Set<String> set = new TreeSet<>();
    sluice.getEnv().stream().map(EnvVar::getName).forEach(set::add);
    set.addAll(secret.getStringData().keySet());
    assertReadBySluice(set, "docs/deploy/kubernetes");

    Set<String> image = new TreeSet<>();
    Matcher env = Pattern.compile("\\b(SLUICE_[A-Z_]+)=").matcher(containerfile);
    while (env.find()) {
      image.add(env.group(1));
    }
    image.remove("SLUICE_HOME"); // the launcher's (bin/sluice), not a config key
    assertThat(image).contains("SLUICE_SERVER_HOST", "SLUICE_SERVER_ALLOW_PLAINTEXT");
    assertReadBySluice(image, "the Containerfile");
  }

  @Test
  void theComposeFileSetsOnlyVariablesSluiceReads() throws Exception {
    JsonNode compose = YAML.readTree(DEPLOY.resolve("compose.yaml").toFile());
    JsonNode sluice = compose.get("services").get("sluice");
    assertThat(sluice.get("image").asText()).isEqualTo("localhost/sluice:" + BuildInfo.version());
    Set<String> set = new TreeSet<>();
    sluice.get("environment").fieldNames().forEachRemaining(set::add);
    assertThat(set).contains("SLUICE_DATABASE_URL", "SLUICE_DATABASE_PASSWORD");
    assertReadBySluice(set, "docs/deploy/compose.yaml");
  }

  @Test
  void everyVariableTheContainerPageNamesIsOneSluiceReads() throws Exception {
    Set<String> named = new TreeSet<>();
    Matcher m =
        Pattern.compile("\\bSLUICE_[A-Z_]+\\b")
            .matcher(Files.readString(Path.of("..", "docs", "CONTAINER.md")));
    while (m.find()) {
      named.add(m.group());
    }
    // Compose's own variables, which the Compose file passes on under Sluice's names.
    named.removeAll(Set.of("SLUICE_DB_PASSWORD", "SLUICE_ROOT_SECRET"));
    assertReadBySluice(named, "docs/CONTAINER.md");
  }

  private static void assertReadBySluice(Set<String> variables, String where) {
    Set<String> read = new TreeSet<>(EnvironmentKeys.variables().keySet());
    read.addAll(NOT_CONFIG_KEYS);
    assertThat(variables.stream().filter(v -> v.startsWith("SLUICE_")))
        .as("the SLUICE_ variables %s sets", where)
        .isNotEmpty()
        .allSatisfy(v -> assertThat(read).as("variables Sluice reads").contains(v));
  }
}
