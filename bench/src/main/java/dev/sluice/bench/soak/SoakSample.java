package dev.sluice.bench.soak;

import java.util.Map;

/**
 * One interval of a soak on one target: what the clients did in it, per kind, and the server's
 * state at its end (read from /proc and, for the old generation, after a full collection).
 *
 * @param index 1 for the first interval
 * @param endSeconds seconds since the soak began
 * @param operations completed operations per kind
 * @param errors failed operations per kind
 * @param p50Micros median latency per kind
 * @param p99Micros 99th percentile per kind
 * @param p99AllMicros 99th percentile over every operation of the interval
 * @param serverCpuSeconds the server's CPU time in the interval
 * @param rssKib the server's resident memory at the end
 * @param threads the server's threads at the end
 * @param oldGenKib its old generation after a full collection (-1: not known)
 */
record SoakSample(
    int index,
    double endSeconds,
    Map<SoakKind, Long> operations,
    Map<SoakKind, Long> errors,
    Map<SoakKind, Long> p50Micros,
    Map<SoakKind, Long> p99Micros,
    long p99AllMicros,
    double serverCpuSeconds,
    long rssKib,
    int threads,
    long oldGenKib) {

  long totalOperations() {
    return operations.values().stream().mapToLong(Long::longValue).sum();
  }

  long totalErrors() {
    return errors.values().stream().mapToLong(Long::longValue).sum();
  }
}
