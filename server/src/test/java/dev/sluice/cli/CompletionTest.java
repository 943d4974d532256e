package dev.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class CompletionTest {
  @Test
  void bashCompletionCoversEveryCommandGroupAndItsOptions() {
    Cli.Result result = Cli.raw("completion", "bash");

    assertThat(result.exit()).as(result.err()).isZero();
    assertThat(result.out())
        .startsWith("#!/usr/bin/env bash")
        .contains("complete -F _complete_sluice")
        .contains(
            "catalogs",
            "namespaces",
            "tables",
            "events",
            "signing-keys",
            "privileges",
            "--role-arn",
            "--storage-config",
            "--profile");
  }

  @Test
  void anotherShellIsAUsageError() {
    Cli.Result result = Cli.raw("completion", "fish");
    assertThat(result.exit()).isEqualTo(2);
    assertThat(result.err()).contains("bash");
  }
}
