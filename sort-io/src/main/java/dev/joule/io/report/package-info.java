/**
 * What a sort did (API): the immutable {@link dev.joule.io.report.SortReport} with one {@link
 * dev.joule.io.report.PhaseReport} per phase and the valsort numbers ({@link
 * dev.joule.io.report.DataSummary}) of input and output, its JSON form, and the {@link
 * dev.joule.io.report.PhaseClock} that measures a phase's wall and CPU time; the {@link
 * dev.joule.io.report.Timeline} of samples per interval and {@link dev.joule.io.report.PhaseSpan}s.
 *
 * <p>Layer 1 of 4 (vocabulary): depends only on {@code dev.joule.io.config} (the timeline's
 * samples).
 */
package dev.joule.io.report;
