/**
 * Temp space, the stage between run generation and the merge: stripes (temp directories, normally
 * one per mount point), the per-sort private directory {@code joule-<uuid>} (0700, locked by its
 * owner) in each stripe, placement of run files over stripes, and the tracking and deletion of
 * every temp file — on success, on any exception and on JVM shutdown.
 */
package dev.joule.io.stripe;
