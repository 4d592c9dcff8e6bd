/**
 * The failure vocabulary of the sort (API): every exception that leaves {@code dev.joule.io} is one
 * of these. {@link dev.joule.io.error.SortIOException} names the operation, the exact path and the
 * operating system's reason; {@link dev.joule.io.error.CorruptRunException} a temp run that failed
 * its checks (file and offset); {@link dev.joule.io.error.SortValidationException} a failed
 * self-validation (nothing published); {@link dev.joule.io.error.SortCancelledException} an
 * interrupt. What each failure leaves behind is in {@code docs/reliability.md}.
 *
 * <p>Layer 1 of 4 (vocabulary): depends on nothing else in {@code dev.joule.io}.
 */
package dev.joule.io.error;
