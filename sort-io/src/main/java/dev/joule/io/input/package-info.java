/**
 * Input reading, the first stage of the pipeline: the file to be sorted is opened once, checked to
 * hold whole records, read sequentially with read-ahead straight into the caller's (arena) buffers,
 * and checked not to have changed while it was read.
 */
package dev.joule.io.input;
