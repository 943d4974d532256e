package dev.sluice.config;

/** The configuration is invalid; the message names the key at fault. */
public class ConfigException extends RuntimeException {
  public ConfigException(String message) {
    super(message);
  }
}
