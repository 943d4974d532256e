package dev.sluice.bench;

/** A server process as a whole, read from /proc just before it is stopped. */
public record ServerStats(String name, long pid, double startupSeconds, long rssKib, long peakRssKib, double cpuSeconds) {}
