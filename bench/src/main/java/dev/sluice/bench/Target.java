package dev.sluice.bench;

import dev.sluice.bench.target.Endpoint;

/**
 * A benchmark target: an endpoint with credentials, and the pid of the server behind it (-1: not
 * ours).
 */
public record Target(Endpoint endpoint, long serverPid) {
  public String name() {
    return endpoint.name();
  }
}
