/**
 * Ownership and metering of a sort's off-heap memory: {@link dev.joule.io.memory.Resources} (what a
 * sort or phase opened, closed in reverse order on every path), {@link
 * dev.joule.io.memory.MemoryMeter} (bytes held and the peak, for the report) and {@link
 * dev.joule.io.memory.ArenaMemory} (run formation's idle arenas lent to the merge as block pools,
 * so that the merge touches no fresh pages).
 *
 * <p>Layer 2 of 4 (plumbing): depends on {@code io.block}, {@code io.fs} and {@code core.memory}.
 */
package dev.joule.io.memory;
