package dev.joule.io.testing;

/** The kinds of file-system operation the fault layer counts and can fail. */
public enum FaultOp {
  /** Opening or creating a file channel, creating a directory. */
  OPEN,
  READ,
  WRITE,
  FORCE,
  MOVE,
  DELETE
}
