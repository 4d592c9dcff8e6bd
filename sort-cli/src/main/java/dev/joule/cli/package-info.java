/**
 * The {@code joule} command line (picocli): {@code sort} and {@code bench} over {@code
 * io.pipeline}, and the Sort Benchmark's {@code gensort} and {@code valsort}. Exit codes live in
 * {@link dev.joule.cli.ExitCodes}; commands write only to picocli's out and err streams.
 */
package dev.joule.cli;
