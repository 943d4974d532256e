package dev.sluice.cli;

import java.util.concurrent.Callable;
import picocli.AutoComplete;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code sluice completion bash}: prints picocli's bash completion script for the whole command
 * line ({@code source <(sluice completion bash)}; zsh too, after {@code autoload -U bashcompinit &&
 * bashcompinit}).
 */
@Command(
    name = "completion",
    description = "Print a shell completion script: source <(sluice completion bash)")
public final class CompletionCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Mixin HelpOption help;

  @Parameters(
      index = "0",
      paramLabel = "SHELL",
      description = "The shell: bash (zsh through bashcompinit)")
  Shell shell;

  /** The shells a script is printed for. */
  enum Shell {
    bash
  }

  @Override
  public Integer call() {
    String script = AutoComplete.bash(spec.root().name(), spec.root().commandLine());
    spec.commandLine().getOut().print(script);
    spec.commandLine().getOut().flush();
    return 0;
  }
}
