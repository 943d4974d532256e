package dev.sluice.client.aws;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The engine-side path: web identity from the environment, unless something outranks it. */
class StandAsideTest {
  @TempDir Path dir;
  private Path home;
  private Path token;
  private Map<String, String> env;
  private Map<String, String> props;

  @BeforeEach
  void setUp() throws Exception {
    home = Files.createDirectories(dir.resolve("home"));
    token = Files.writeString(dir.resolve("token"), "a-token");
    env = new HashMap<>();
    env.put("AWS_ROLE_ARN", "arn:aws:iam::123456789012:role/stand-aside");
    env.put("AWS_WEB_IDENTITY_TOKEN_FILE", token.toString());
    props = new HashMap<>();
  }

  private AwsEnvironment environment() {
    return AwsEnvironment.of(env, props, home);
  }

  private boolean resolves(boolean explicitKeys) {
    return WebIdentityCredentialsProvider.settingsFromEnvironment(explicitKeys, environment())
        .isPresent();
  }

  @Test
  void webIdentityAloneResolvesWithTheEnvironmentsSettings() {
    env.put("AWS_ROLE_SESSION_NAME", "exec-7");
    WebIdentitySettings s =
        WebIdentityCredentialsProvider.settingsFromEnvironment(false, environment())
            .orElseThrow()
            .build();
    assertThat(s.roleArn()).isEqualTo("arn:aws:iam::123456789012:role/stand-aside");
    assertThat(s.webIdentityTokenFile()).isEqualTo(token);
    assertThat(s.sessionName()).isEqualTo("exec-7");
    assertThat(HigherPrecedenceSources.find(false, environment())).isEmpty();
  }

  @Test
  void systemPropertiesConfigureWebIdentityToo() {
    env.clear();
    props.put("aws.roleArn", "arn:aws:iam::123456789012:role/p");
    props.put("aws.webIdentityTokenFile", token.toString());
    assertThat(resolves(false)).isTrue();
  }

  @Test
  void withoutARoleOrTokenFileThereIsNothingToResolve() {
    env.remove("AWS_ROLE_ARN");
    assertThat(resolves(false)).isFalse();
    env.put("AWS_ROLE_ARN", "arn:aws:iam::123456789012:role/r");
    env.remove("AWS_WEB_IDENTITY_TOKEN_FILE");
    assertThat(resolves(false)).isFalse();
  }

  @Test
  void explicitKeysOutrankIt() {
    assertThat(resolves(true)).isFalse();
    assertThat(HigherPrecedenceSources.find(true, environment())).contains("explicit keys");
  }

  @Test
  void staticEnvironmentKeysOutrankIt() {
    env.put("AWS_ACCESS_KEY_ID", "AKIAEXAMPLE");
    assertThat(resolves(false)).as("half a pair is not a source").isTrue();
    env.put("AWS_SECRET_ACCESS_KEY", "secret-value");
    assertThat(resolves(false)).isFalse();
    assertThat(HigherPrecedenceSources.find(false, environment()).orElseThrow())
        .contains("AWS_ACCESS_KEY_ID")
        .doesNotContain("AKIAEXAMPLE")
        .doesNotContain("secret-value");
  }

  @Test
  void staticSystemPropertyKeysOutrankIt() {
    props.put("aws.accessKeyId", "AKIAEXAMPLE");
    props.put("aws.secretAccessKey", "secret-value");
    assertThat(resolves(false)).isFalse();
  }

  @Test
  void aNamedProfileOutranksIt() {
    env.put("AWS_PROFILE", "analytics");
    assertThat(resolves(false)).isFalse();
    env.remove("AWS_PROFILE");
    props.put("aws.profile", "analytics");
    assertThat(resolves(false)).isFalse();
  }

  @Test
  void aSharedCredentialsFileInHomeOutranksIt() throws Exception {
    Files.createDirectories(home.resolve(".aws"));
    assertThat(resolves(false)).as("the directory alone is not a file").isTrue();
    Files.writeString(home.resolve(".aws/credentials"), "[default]\n");
    assertThat(resolves(false)).isFalse();
  }

  @Test
  void aSharedConfigFileInHomeOutranksIt() throws Exception {
    Files.createDirectories(home.resolve(".aws"));
    Files.writeString(home.resolve(".aws/config"), "[default]\nregion = eu-west-1\n");
    assertThat(resolves(false)).isFalse();
  }

  @Test
  void sharedFilesNamedByTheEnvironmentCountOnlyWhenTheyExist() throws Exception {
    env.put("AWS_SHARED_CREDENTIALS_FILE", dir.resolve("creds").toString());
    env.put("AWS_CONFIG_FILE", dir.resolve("conf").toString());
    assertThat(resolves(false)).isTrue();
    Files.writeString(dir.resolve("conf"), "[default]\n");
    assertThat(resolves(false)).isFalse();
    Files.delete(dir.resolve("conf"));
    Files.writeString(dir.resolve("creds"), "[default]\n");
    assertThat(resolves(false)).isFalse();
  }

  @Test
  void aNamedSharedFileReplacesTheHomeDefault() throws Exception {
    // The SDK reads AWS_CONFIG_FILE instead of ~/.aws/config, so only the named file counts.
    Files.createDirectories(home.resolve(".aws"));
    Files.writeString(home.resolve(".aws/config"), "[default]\n");
    env.put("AWS_CONFIG_FILE", dir.resolve("missing").toString());
    assertThat(resolves(false)).isTrue();
  }

  @Test
  void aTildeInANamedSharedFileIsTheHomeDirectory() throws Exception {
    Files.writeString(home.resolve("my-credentials"), "[default]\n");
    env.put("AWS_SHARED_CREDENTIALS_FILE", "~/my-credentials");
    assertThat(resolves(false)).isFalse();
  }

  @Test
  void aResolvedProviderGetsCredentialsFromTheConfiguredStsEndpoint() throws Exception {
    try (FakeSts sts = new FakeSts()) {
      env.put("AWS_ROLE_ARN", "arn:aws:iam::123456789012:role/resolved-end-to-end");
      env.put("AWS_ENDPOINT_URL_STS", sts.endpoint().toString());
      WebIdentityCredentialsProvider provider =
          WebIdentityCredentialsProvider.resolve(false, environment(), b -> b.maxAttempts(2))
              .orElseThrow();
      assertThat(provider.settings().maxAttempts()).isEqualTo(2);
      assertThat(provider.resolveCredentials().accessKeyId()).isEqualTo("ASIAFAKE1");
      assertThat(sts.recorded().get(0).form()).containsEntry("WebIdentityToken", "a-token");
    }
  }
}
