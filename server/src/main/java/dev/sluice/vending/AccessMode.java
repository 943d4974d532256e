package dev.sluice.vending;

/** What a vended credential may do: read the table's files, or read and write them. */
public enum AccessMode {
  READ,
  READ_WRITE
}
