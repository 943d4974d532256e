package dev.sluice.cli;

import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * A command that only groups subcommands: called alone, it is a usage error (exit 2, with help).
 */
abstract class CommandGroup implements Runnable {
  @Spec CommandSpec spec;

  @Mixin HelpOption help;

  @Override
  public void run() {
    throw new ParameterException(
        spec.commandLine(),
        "Missing subcommand: one of " + String.join(", ", spec.subcommands().keySet()));
  }
}
