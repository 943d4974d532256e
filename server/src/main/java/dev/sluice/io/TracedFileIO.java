package dev.sluice.io;

import static java.util.Objects.requireNonNull;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Scope;
import java.io.IOException;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.iceberg.io.BulkDeletionFailureException;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.FileInfo;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.OutputFile;
import org.apache.iceberg.io.PositionOutputStream;
import org.apache.iceberg.io.SeekableInputStream;
import org.apache.iceberg.io.SupportsBulkOperations;
import org.apache.iceberg.io.SupportsPrefixOperations;

/**
 * The catalog's own FileIO with a client span per metadata-file read (from opening the stream to
 * closing it), write and delete, a child of the request's span; untraced outside a request's span.
 * The path is an attribute (a table's own location; never a credential). Bulk and prefix operations
 * pass through as the delegate offers them.
 */
public final class TracedFileIO
    implements FileIO, SupportsBulkOperations, SupportsPrefixOperations {
  private static final AttributeKey<String> PATH = AttributeKey.stringKey("sluice.file.path");

  private final FileIO delegate;
  private final Tracer tracer;

  public TracedFileIO(FileIO delegate, Tracer tracer) {
    this.delegate = requireNonNull(delegate, "delegate");
    this.tracer = requireNonNull(tracer, "tracer");
  }

  /** A span for {@code what} on {@code path}; invalid (recording nothing) outside a request. */
  private Span start(String what, String path) {
    if (!Span.current().getSpanContext().isValid()) {
      return Span.getInvalid();
    }
    return tracer
        .spanBuilder("fileio " + what)
        .setSpanKind(SpanKind.CLIENT)
        .setAttribute(PATH, path)
        .startSpan();
  }

  private static <T> T within(Span span, Supplier<T> body) {
    try (Scope ignored = span.makeCurrent()) {
      return body.get();
    } catch (RuntimeException e) {
      span.setStatus(StatusCode.ERROR, e.getClass().getSimpleName());
      span.end();
      throw e;
    }
  }

  @Override
  public InputFile newInputFile(String path) {
    return new Traced(delegate.newInputFile(path));
  }

  @Override
  public InputFile newInputFile(String path, long length) {
    return new Traced(delegate.newInputFile(path, length));
  }

  @Override
  public OutputFile newOutputFile(String path) {
    OutputFile out = delegate.newOutputFile(path);
    return new OutputFile() {
      @Override
      public PositionOutputStream create() {
        Span span = start("write", out.location());
        return new TracedOutput(within(span, out::create), span);
      }

      @Override
      public PositionOutputStream createOrOverwrite() {
        Span span = start("write", out.location());
        return new TracedOutput(within(span, out::createOrOverwrite), span);
      }

      @Override
      public String location() {
        return out.location();
      }

      @Override
      public InputFile toInputFile() {
        return new Traced(out.toInputFile());
      }
    };
  }

  @Override
  public void deleteFile(String path) {
    Span span = start("delete", path);
    within(
        span,
        () -> {
          delegate.deleteFile(path);
          return null;
        });
    span.end();
  }

  @Override
  public void deleteFiles(Iterable<String> paths) throws BulkDeletionFailureException {
    if (delegate instanceof SupportsBulkOperations bulk) {
      bulk.deleteFiles(paths);
    } else {
      paths.forEach(this::deleteFile);
    }
  }

  @Override
  public Iterable<FileInfo> listPrefix(String prefix) {
    return prefixes().listPrefix(prefix);
  }

  @Override
  public void deletePrefix(String prefix) {
    prefixes().deletePrefix(prefix);
  }

  private SupportsPrefixOperations prefixes() {
    if (delegate instanceof SupportsPrefixOperations prefixes) {
      return prefixes;
    }
    throw new UnsupportedOperationException("This FileIO cannot list or delete by prefix");
  }

  @Override
  public Map<String, String> properties() {
    return delegate.properties();
  }

  @Override
  public void initialize(Map<String, String> properties) {
    delegate.initialize(properties);
  }

  @Override
  public void close() {
    delegate.close();
  }

  /** An input file whose stream is a span from open to close. */
  private final class Traced implements InputFile {
    private final InputFile file;

    Traced(InputFile file) {
      this.file = file;
    }

    @Override
    public long getLength() {
      return file.getLength();
    }

    @Override
    public SeekableInputStream newStream() {
      Span span = start("read", file.location());
      return new TracedInput(within(span, file::newStream), span);
    }

    @Override
    public String location() {
      return file.location();
    }

    @Override
    public boolean exists() {
      return file.exists();
    }
  }

  private static final class TracedInput extends SeekableInputStream {
    private final SeekableInputStream in;
    private final Span span;

    TracedInput(SeekableInputStream in, Span span) {
      this.in = in;
      this.span = span;
    }

    @Override
    public long getPos() throws IOException {
      return in.getPos();
    }

    @Override
    public void seek(long newPos) throws IOException {
      in.seek(newPos);
    }

    @Override
    public int read() throws IOException {
      return in.read();
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      return in.read(b, off, len);
    }

    @Override
    public void close() throws IOException {
      try {
        in.close();
      } finally {
        span.end();
      }
    }
  }

  private static final class TracedOutput extends PositionOutputStream {
    private final PositionOutputStream out;
    private final Span span;

    TracedOutput(PositionOutputStream out, Span span) {
      this.out = out;
      this.span = span;
    }

    @Override
    public long getPos() throws IOException {
      return out.getPos();
    }

    @Override
    public void write(int b) throws IOException {
      out.write(b);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      out.write(b, off, len);
    }

    @Override
    public void flush() throws IOException {
      out.flush();
    }

    @Override
    public void close() throws IOException {
      try {
        out.close();
      } catch (IOException | RuntimeException e) {
        span.setStatus(StatusCode.ERROR, e.getClass().getSimpleName());
        throw e;
      } finally {
        span.end();
      }
    }
  }
}
