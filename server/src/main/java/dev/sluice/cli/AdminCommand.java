package dev.sluice.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * A leaf admin command: validates the connection options, runs, and turns a server or network
 * failure into one {@code error: ...} line and exit status 1. Usage errors stay picocli's (2).
 */
abstract class AdminCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Mixin ConnectionOptions connection;

  @Mixin HelpOption help;

  @Override
  public final Integer call() {
    ManagementClient client = connection.client(spec);
    Console console =
        new Console(spec.commandLine().getOut(), spec.commandLine().getErr(), connection.output);
    try {
      run(client, console);
      return 0;
    } catch (AdminFailure e) {
      console.error(e.getMessage());
      return 1;
    }
  }

  abstract void run(ManagementClient client, Console console);
}
