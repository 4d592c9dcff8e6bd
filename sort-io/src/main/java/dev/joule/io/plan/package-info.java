/**
 * How a sort will run, decided before any data is read (API): {@link dev.joule.io.plan.SortPlan}
 * (one pass or two, run size, fan-in, the memory model and the arena count, transfer sizes) and the
 * {@link dev.joule.io.plan.MergePlan} of merge passes (stable: merges of adjacent segments only).
 * Pure computation: no I/O except reading the open-file limit and the stripes' free space.
 *
 * <p>Layer 1 of 4 (vocabulary): depends only on {@code io.config} and {@code core.record}.
 */
package dev.joule.io.plan;
