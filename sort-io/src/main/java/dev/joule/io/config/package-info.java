/**
 * What a sort is asked to do (API): {@link dev.joule.io.config.SortConfig} and its value types
 * ({@link dev.joule.io.config.DataSize}, transfer sizes per {@link dev.joule.io.config.FileKind},
 * the {@link dev.joule.io.config.DirectIoPolicy}), and the callbacks a sort reports through ({@link
 * dev.joule.io.config.ProgressListener}, {@link dev.joule.io.config.NoticeSink}, and {@link
 * dev.joule.io.config.TimelineListener} with its {@link dev.joule.io.config.TimelineSample}s).
 *
 * <p>Layer 1 of 4 (vocabulary): depends on nothing else in {@code dev.joule.io}; every other
 * package may use it. See {@code docs/design.md#packages} for the layers.
 */
package dev.joule.io.config;
