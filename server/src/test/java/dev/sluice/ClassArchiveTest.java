package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which archive a JVM was told to use, and the training JVM's command that writes one. */
class ClassArchiveTest {
  @Test
  void theArchiveIsTheLastOneNamed() {
    assertThat(ClassArchive.named(List.of("-Xmx256m"))).isEmpty();
    assertThat(ClassArchive.named(List.of("-XX:SharedArchiveFile="))).as("no file").isEmpty();
    assertThat(
            ClassArchive.named(
                List.of(
                    "-XX:SharedArchiveFile=/a.jsa",
                    "-Xlog:cds=off",
                    "-XX:SharedArchiveFile=/opt/sluice/sluice.jsa")))
        .contains(Path.of("/opt/sluice/sluice.jsa"));
  }

  @Test
  void theTrainingKeepsTheFlagsButThoseAboutArchivesRecordingsAndAgents() {
    List<String> command =
        ClassArchive.trainingCommand(
            Path.of("/jdk/bin/java"),
            List.of(
                "-XX:+UseSerialGC",
                "-Xmx256m",
                "-XX:SharedArchiveFile=/old.jsa",
                "-Xshare:auto",
                "-Xlog:cds=off",
                "-Xlog:cds+dynamic=off",
                "-XX:StartFlightRecording=filename=x.jfr",
                "-agentlib:jdwp=transport=dt_socket,server=y,address=5005",
                "-Dfile.encoding=UTF-8"),
            "/s/sluice-server.jar:/s/lib/a.jar",
            Path.of("/s/.sluice-1.jsa"));

    assertThat(command)
        .containsExactly(
            "/jdk/bin/java",
            "-XX:+UseSerialGC",
            "-Xmx256m",
            "-Dfile.encoding=UTF-8",
            "-XX:ArchiveClassesAtExit=/s/.sluice-1.jsa",
            "-Xlog:cds=off",
            "-Xlog:cds+dynamic=off",
            "-cp",
            "/s/sluice-server.jar:/s/lib/a.jar",
            "dev.sluice.ClassArchiveTraining");
  }
}
