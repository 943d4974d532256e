package dev.sluice.bench;

/**
 * A server process as a whole: its RSS two seconds after it became ready (idle, before any
 * fixture), and what /proc says just before it is stopped.
 */
public record ServerStats(
    String name, long pid, double startupSeconds, long idleRssKib, long rssKib, long peakRssKib, double cpuSeconds) {}
