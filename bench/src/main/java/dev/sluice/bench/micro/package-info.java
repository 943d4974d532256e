/**
 * JMH micro-benchmarks of Sluice's hot paths, each measured next to a baseline in the same run so
 * that results read as ratios (bench/jmh.sh runs them and writes the ratios to
 * bench/results/&lt;name&gt;-micro.md). Benchmark methods are named {@code <pair>_<variant>};
 * {@link dev.sluice.bench.micro.MicroReport} lists which variant is each pair's baseline.
 *
 * <p>They run in-process against the server's own classes (server/target's jar and lib/), never
 * against a running server: the load generator in {@code dev.sluice.bench} measures that.
 */
package dev.sluice.bench.micro;
