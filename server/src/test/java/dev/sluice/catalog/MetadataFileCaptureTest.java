package dev.sluice.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.util.Random;
import org.apache.iceberg.inmemory.InMemoryFileIO;
import org.apache.iceberg.io.PositionOutputStream;
import org.junit.jupiter.api.Test;

class MetadataFileCaptureTest {
  @Test
  void keepsExactlyTheBytesOfTheMetadataFileWrittenAcrossManyChunks() throws IOException {
    byte[] content = new byte[3 * 1024 * 1024 + 12345]; // several chunks, the last one partial
    new Random(42).nextBytes(content);
    try (InMemoryFileIO files = new InMemoryFileIO()) {
      MetadataFileCapture capture = new MetadataFileCapture(files);
      String location = "mem://w/t/metadata/00001-x.metadata.json";
      try (PositionOutputStream out = capture.newOutputFile(location).create()) {
        int at = 0;
        Random sizes = new Random(7);
        while (at < content.length) {
          if (sizes.nextInt(4) == 0) {
            out.write(content[at++]); // single bytes too, as a Writer may flush them
          } else {
            int n = Math.min(content.length - at, sizes.nextInt(40_000));
            out.write(content, at, n);
            at += n;
          }
        }
      }
      assertThat(capture.written(location)).isEqualTo(content);
      try (InputStream in = files.newInputFile(location).newStream()) {
        assertThat(in.readAllBytes()).as("the file itself").isEqualTo(content);
      }
      assertThat(capture.written("mem://w/t/metadata/other.metadata.json")).isNull();
    }
  }

  @Test
  void keepsNothingOfCompressedOrOtherFiles() throws IOException {
    try (InMemoryFileIO files = new InMemoryFileIO()) {
      MetadataFileCapture capture = new MetadataFileCapture(files);
      for (String location :
          new String[] {
            "mem://w/t/metadata/00001-x.gz.metadata.json", "mem://w/t/data/f.parquet"
          }) {
        try (PositionOutputStream out = capture.newOutputFile(location).create()) {
          out.write(new byte[] {1, 2, 3});
        }
        assertThat(capture.written(location)).as(location).isNull();
      }
    }
  }
}
