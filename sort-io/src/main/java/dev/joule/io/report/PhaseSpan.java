package dev.joule.io.report;

/**
 * When one phase of a sort ran, on the clock of its {@link Timeline}: the bands of the report's
 * page.
 *
 * @param name the phase's name, as in its {@link PhaseReport}
 * @param startNanos nanoseconds after the sort began
 * @param endNanos nanoseconds after the sort began
 */
public record PhaseSpan(String name, long startNanos, long endNanos) {}
