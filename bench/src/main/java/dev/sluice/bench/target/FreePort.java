package dev.sluice.bench.target;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/** A loopback port free right now, for a server about to be started. */
public final class FreePort {
  private FreePort() {}

  public static int pick() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }
}
