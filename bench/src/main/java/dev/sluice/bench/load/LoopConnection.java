package dev.sluice.bench.load;

import dev.sluice.bench.http.ResponseParser;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;

/**
 * One client of the event loop: its keep-alive connection (non-blocking, TCP_NODELAY, connected
 * again when the server closes it or an operation fails on it) and its operation in flight: the
 * request being written, then the response being parsed. Driven by the loop's thread only.
 */
final class LoopConnection {
  private final EventLoop loop;
  private final RequestSource source;
  private final InetSocketAddress address;
  private final ResponseParser parser = new ResponseParser();
  private ByteBuffer out = ByteBuffer.allocateDirect(4 * 1024);
  private SocketChannel channel;
  private SelectionKey key;
  private long startedAt;
  private boolean inFlight;
  private int served; // responses read on this connection
  private boolean resent;

  LoopConnection(EventLoop loop, RequestSource source, InetSocketAddress address) {
    this.loop = loop;
    this.source = source;
    this.address = address;
  }

  /** Starts the next operation, or ends this client if the window is over. */
  void next(long now) {
    if (!loop.running(now)) {
      close();
      loop.finished();
      return;
    }
    startedAt = now;
    inFlight = true;
    resent = false;
    try {
      byte[] request = source.next();
      if (request.length > out.capacity()) {
        out = ByteBuffer.allocateDirect(Math.max(request.length, 2 * out.capacity()));
      }
      out.clear();
      out.put(request).flip();
      parser.reset();
      if (channel == null) {
        connect();
      } else {
        write();
      }
    } catch (IOException e) {
      failOrResend(e);
    }
  }

  /** The selector says this connection can go on. */
  void onReady(SelectionKey ready) {
    try {
      if (ready.isConnectable()) {
        channel.finishConnect();
        write();
      } else if (ready.isWritable()) {
        write();
      } else if (ready.isReadable()) {
        read();
      }
    } catch (IOException e) {
      failOrResend(e);
    }
  }

  /** Fails the operation in flight if it started before {@code deadline}. */
  void timeOutIfStarted(long deadline) {
    if (inFlight && startedAt - deadline < 0) {
      fail(EventLoop.timeout());
    }
  }

  void close() {
    if (channel != null) {
      try {
        channel.close(); // cancels its key
      } catch (IOException ignored) {
        // closing: nothing to do
      }
    }
    channel = null;
    key = null;
  }

  private void connect() throws IOException {
    channel = SocketChannel.open();
    served = 0;
    channel.configureBlocking(false);
    channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
    if (channel.connect(address)) {
      key = channel.register(loop.selector(), 0, this);
      write();
    } else {
      key = channel.register(loop.selector(), SelectionKey.OP_CONNECT, this);
    }
  }

  private void write() throws IOException {
    channel.write(out);
    key.interestOps(out.hasRemaining() ? SelectionKey.OP_WRITE : SelectionKey.OP_READ);
  }

  private void read() throws IOException {
    ByteBuffer in = loop.readBuffer();
    in.clear();
    int n = channel.read(in);
    if (n < 0) {
      parser.endOfInput(); // throws unless the response is framed by the end of the connection
      close();
      complete();
      return;
    }
    int used = parser.feed(in.array(), 0, n);
    if (parser.complete()) {
      if (used < n) {
        throw new IOException(
            (n - used) + " bytes after a complete response (HTTP " + parser.status() + ")");
      }
      served++;
      if (parser.closeAfter()) {
        close();
      }
      complete();
    }
  }

  private void complete() {
    long now = System.nanoTime();
    inFlight = false;
    loop.completed(
        startedAt, now, source.check(parser.status(), parser.body(), parser.bodyLength()));
    next(now);
  }

  /**
   * A kept-alive connection that the server closed before it answered this request (nothing of the
   * response came): the request is sent again on a new connection, once, as the plain-socket client
   * does. Anything else fails the operation.
   */
  private void failOrResend(IOException e) {
    if (served > 0 && !resent && !parser.started()) {
      resent = true;
      close();
      out.rewind();
      try {
        connect();
        return;
      } catch (IOException again) {
        e.addSuppressed(again);
      }
    }
    fail(e);
  }

  /** The connection's state is unknown after a failure: it is dropped, and made anew later. */
  private void fail(IOException e) {
    close();
    inFlight = false;
    loop.failed(startedAt, e, this);
  }
}
