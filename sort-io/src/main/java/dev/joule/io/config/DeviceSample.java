package dev.joule.io.config;

/**
 * What one device did in one interval of a sort's timeline ({@link TimelineSample}).
 *
 * <p>Immutable.
 *
 * @param device "input", "output", or "temp N" for the temp directory numbered N in configuration
 *     order (its stripe)
 * @param path the file (input, output) or directory (temp) on that device
 * @param bytesRead bytes read from it in the interval
 * @param bytesWritten bytes written to it in the interval
 * @param inFlight transfers in progress on it when the sample was taken
 * @param busyNanos time its transfers that ended in the interval took, summed over concurrent ones:
 *     divided by the interval, the mean number of transfers in flight
 * @param waitNanos time the sort's consumers (the input's reader, the merge's cursors) waited in
 *     the interval for reads from it, or read it themselves; waits of write-behind for a full queue
 *     are not counted
 */
public record DeviceSample(
    String device,
    String path,
    long bytesRead,
    long bytesWritten,
    int inFlight,
    long busyNanos,
    long waitNanos) {}
