package dev.sluice.cli;

import java.util.Locale;
import picocli.CommandLine.Option;

/**
 * {@code --yes/-y} and the question a destructive command asks first. The question is asked only
 * when stdin is a terminal ({@code System.console() != null}): a person at a prompt confirms, while
 * a script (stdin a pipe or a file, as in CI) proceeds without being asked, so existing scripts
 * keep working and none hangs waiting for an answer nobody will type. {@code --yes} skips the
 * question on a terminal too.
 */
final class Confirmation {
  /** Who answers the question. */
  interface Prompt {
    /** False when nobody can answer (stdin is not a terminal): the command proceeds. */
    boolean interactive();

    /** The answer typed, or null at end of input (taken as no). */
    String ask(String question);
  }

  /** The terminal. Tests replace it with canned answers and put it back. */
  static final Prompt TERMINAL =
      new Prompt() {
        @Override
        public boolean interactive() {
          return System.console() != null;
        }

        @Override
        public String ask(String question) {
          java.io.Console console = System.console();
          return console == null ? null : console.readLine("%s", question);
        }
      };

  static volatile Prompt prompt = TERMINAL;

  @Option(
      names = {"-y", "--yes"},
      description =
          "Do not ask for confirmation (asked only when stdin is a terminal; scripts are never"
              + " asked)")
  boolean yes;

  /**
   * Asks "{@code action}? [y/N]" on a terminal unless {@code --yes}; anything but y/yes stops the
   * command with exit status 1 before any change is made.
   */
  void require(String action) {
    Prompt answering = prompt;
    if (yes || !answering.interactive()) {
      return;
    }
    String answer = answering.ask(capitalized(action) + "? [y/N] ");
    String normalized = answer == null ? "" : answer.trim().toLowerCase(Locale.ROOT);
    if (!normalized.equals("y") && !normalized.equals("yes")) {
      throw new AdminFailure(
          "not confirmed, nothing changed: " + action + " (--yes skips the question)");
    }
  }

  private static String capitalized(String action) {
    return action.isEmpty()
        ? action
        : Character.toUpperCase(action.charAt(0)) + action.substring(1);
  }
}
