package dev.joule.io.config;

/**
 * What decides between records whose keys are equal: their input order (a stable sort), or, as GNU
 * sort does unless {@code -s} or {@code -u} is given, a comparison of the whole records as unsigned
 * bytes, ascending or (under GNU's global {@code -r}) descending, with input order only between
 * identical records.
 */
public enum LastResort {
  /** Equal keys keep input order: a stable sort. */
  NONE,
  /** Equal keys are ordered by their whole records, ascending. */
  ASCENDING,
  /** Equal keys are ordered by their whole records, descending. */
  DESCENDING
}
