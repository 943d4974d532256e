package dev.sluice.api;

/** {@code POST /signing-keys/rotate}: the id of the key that now signs new tokens. */
public record RotatedSigningKey(String kid) {}
