package dev.sluice.config;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A config key whose value is a secret (a password): {@link Redacted#toString} prints it as {@code
 * ***}, docs/CONFIGURATION.md marks it, and ConfigSecretsTest checks both from the model.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target({
  ElementType.RECORD_COMPONENT,
  ElementType.FIELD,
  ElementType.METHOD,
  ElementType.PARAMETER
})
public @interface Secret {}
