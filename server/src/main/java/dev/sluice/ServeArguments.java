package dev.sluice;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * {@code sluice serve}'s command line read without picocli, when it holds only the options {@link
 * Main.Serve} declares, each at most once and with a value. Picocli builds its model of the whole
 * command line (every admin command, by reflection over annotations, with classes compiled for Java
 * 5 that the JVM verifies the slow way and cannot keep in a class-data archive): that cost each
 * start about 0.3 s of CPU. Anything else (help, version, a mistake, an option this class does not
 * know) is left to picocli, which reads and reports it as before.
 */
final class ServeArguments {
  private ServeArguments() {}

  /** The {@code serve} command {@code args} name, or empty when picocli must read them. */
  static Optional<Main.Serve> parse(String[] args) {
    if (args.length == 0 || !args[0].equals("serve")) {
      return Optional.empty();
    }
    Main.Serve serve = new Main.Serve();
    for (int i = 1; i < args.length; i++) {
      String name = args[i];
      String value;
      int equals = name.indexOf('=');
      if (name.startsWith("--") && equals > 0) {
        value = name.substring(equals + 1);
        name = name.substring(0, equals);
      } else if (i + 1 < args.length) {
        value = args[++i];
      } else {
        return Optional.empty();
      }
      // An empty value, or one that looks like an option or an @file: picocli's to judge.
      if (value.isEmpty() || value.startsWith("-") || value.startsWith("@")) {
        return Optional.empty();
      }
      if (!set(serve, name, value)) {
        return Optional.empty();
      }
    }
    return Optional.of(serve);
  }

  /** Sets option {@code name}; false when it is unknown, repeated or its value is not valid. */
  private static boolean set(Main.Serve serve, String name, String value) {
    switch (name) {
      case "--host" -> {
        if (serve.host != null) {
          return false;
        }
        serve.host = value;
      }
      case "--port" -> {
        if (serve.port != null || !value.matches("[0-9]{1,5}")) {
          return false;
        }
        serve.port = Integer.valueOf(value);
      }
      case "--data-dir" -> {
        if (serve.dataDir != null) {
          return false;
        }
        serve.dataDir = value;
      }
      case "--config" -> {
        if (serve.config != null) {
          return false;
        }
        try {
          serve.config = Path.of(value);
        } catch (InvalidPathException e) {
          return false;
        }
      }
      default -> {
        return false;
      }
    }
    return true;
  }
}
