package dev.sluice.cli;

import picocli.CommandLine.Option;

/**
 * {@code -h/--help} alone: picocli's standard mixin would add a {@code --version} that prints
 * nothing here.
 */
final class HelpOption {
  @Option(
      names = {"-h", "--help"},
      usageHelp = true,
      description = "Show this help message and exit.")
  boolean help;
}
