package dev.sluice.bench.target;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Sluice starts with the class-data archive beside its jar, as ./sluice starts it. */
class SluiceLauncherTest {
  @TempDir Path target;

  @Test
  void theArchiveBesideTheJarIsUsedWhenThere() throws Exception {
    Path jar = Files.createFile(target.resolve("sluice-server-1.2.3.jar"));
    assertThat(SluiceLauncher.classArchiveFlags(jar)).isEmpty();

    Path archive = Files.createFile(target.resolve("sluice-server-1.2.3.jsa"));
    assertThat(SluiceLauncher.classArchiveFlags(jar))
        .containsExactly(
            "-XX:SharedArchiveFile=" + archive, "-Xlog:cds=off", "-Xlog:cds+dynamic=off");
  }
}
