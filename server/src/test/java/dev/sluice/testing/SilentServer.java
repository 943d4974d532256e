package dev.sluice.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A loopback TCP server that accepts every connection and never answers (nor closes one): a stalled
 * store or credential provider, for the clients' own timeouts to end their calls. Counts the
 * connections it took.
 */
public final class SilentServer implements AutoCloseable {
  private final ServerSocket socket;
  private final List<Socket> held = new CopyOnWriteArrayList<>();
  private final AtomicInteger accepted = new AtomicInteger();
  private final Thread acceptor;

  private SilentServer(ServerSocket socket) {
    this.socket = socket;
    this.acceptor = new Thread(this::acceptAll, "silent-server-" + socket.getLocalPort());
    acceptor.setDaemon(true);
    acceptor.start();
  }

  /** Listening on a free loopback port. */
  public static SilentServer start() {
    try {
      return new SilentServer(new ServerSocket(0, 50, InetAddress.getLoopbackAddress()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** {@code http://127.0.0.1:<port>}. */
  public String endpoint() {
    return "http://" + socket.getInetAddress().getHostAddress() + ":" + socket.getLocalPort();
  }

  /** The connections taken so far. */
  public int accepted() {
    return accepted.get();
  }

  private void acceptAll() {
    while (!socket.isClosed()) {
      try {
        Socket connection = socket.accept();
        held.add(connection); // kept open, read from never
        accepted.incrementAndGet();
      } catch (IOException e) {
        return; // closed
      }
    }
  }

  @Override
  public void close() throws IOException {
    socket.close();
    for (Socket connection : held) {
      connection.close();
    }
  }
}
