/**
 * Stage 4 of 6, placement: temp space striped over directories (one per device): the per-sort
 * private directory {@code joule-<uuid>} (0700, locked by its owner) in each stripe, placement of
 * run files over stripes ({@link dev.joule.io.stripe.StripeAllocator}), and the tracking and
 * deletion of every temp file on success, on any exception and on JVM shutdown; stale directories
 * of dead sorts are swept. Input: requests for new run files from {@code io.run}. Output: files in
 * private directories, deleted by {@link dev.joule.io.stripe.TempSpace}.
 *
 * <p>Layer 3 of 4 (stages).
 */
package dev.joule.io.stripe;
