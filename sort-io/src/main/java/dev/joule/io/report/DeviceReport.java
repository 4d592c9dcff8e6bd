package dev.joule.io.report;

/**
 * What one temp stripe (device) did during a sort: bytes read and written and the time its
 * transfers took (summed over concurrent transfers, so a device with two reads in flight for a
 * second counts two seconds). Busy MB/s is a device's speed as the sort saw it, and what weighted
 * striping deals units by. A rate-limited device's busy rate flatters it; its sustained rate is
 * measured over the windows in which it held its writers up ({@code DeviceMeter}).
 *
 * @param dir the temp directory
 * @param bytesRead bytes read from it
 * @param bytesWritten bytes written to it
 * @param readNanos time spent in its reads
 * @param writeNanos time spent in its writes
 * @param writeWaitNanos time writers spent waiting for it
 * @param boundBytes bytes written in the windows in which it held its writers up
 * @param boundNanos the length of those windows
 */
public record DeviceReport(
    String dir,
    long bytesRead,
    long bytesWritten,
    long readNanos,
    long writeNanos,
    long writeWaitNanos,
    long boundBytes,
    long boundNanos) {

  /**
   * The write rate over the windows in which this device held its writers up, in MB/s (0 when it
   * never did).
   */
  public double boundWriteMegabytesPerSecond() {
    return boundNanos <= 0 ? 0 : boundBytes * 1e3 / boundNanos;
  }

  /** Bytes written per second of write time, in MB/s (0 without writes). */
  public double writeMegabytesPerSecond() {
    return writeNanos <= 0 ? 0 : bytesWritten * 1e3 / writeNanos;
  }

  /** Bytes read per second of read time, in MB/s (0 without reads). */
  public double readMegabytesPerSecond() {
    return readNanos <= 0 ? 0 : bytesRead * 1e3 / readNanos;
  }

  void appendJson(JsonWriter w) {
    w.beginObject()
        .field("dir", dir)
        .field("bytesRead", bytesRead)
        .field("bytesWritten", bytesWritten)
        .field("readSeconds", readNanos / 1e9)
        .field("writeSeconds", writeNanos / 1e9)
        .field("readMegabytesPerSecond", readMegabytesPerSecond())
        .field("writeMegabytesPerSecond", writeMegabytesPerSecond())
        .field("writeWaitSeconds", writeWaitNanos / 1e9)
        .field("boundWriteSeconds", boundNanos / 1e9)
        .field("boundWriteMegabytesPerSecond", boundWriteMegabytesPerSecond())
        .endObject();
  }
}
