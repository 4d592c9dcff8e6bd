/**
 * Output publication, the last stage of the pipeline: the sorted output is written under a hidden
 * temporary name in the output's own directory, forced, atomically renamed over the final name and
 * made durable by fsyncing the directory, so the final name only ever holds the previous complete
 * file or the new complete file.
 */
package dev.joule.io.output;
