package dev.joule.io.report;

/**
 * What one temp stripe (device) did during a sort: bytes read and written and the time its
 * transfers took (summed over concurrent transfers, so a device with two reads in flight for a
 * second counts two seconds). Busy MB/s is a device's speed as the sort saw it, and what weighted
 * striping deals units by.
 *
 * @param dir the temp directory
 * @param bytesRead bytes read from it
 * @param bytesWritten bytes written to it
 * @param readNanos time spent in its reads
 * @param writeNanos time spent in its writes
 */
public record DeviceReport(
    String dir, long bytesRead, long bytesWritten, long readNanos, long writeNanos) {

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
        .endObject();
  }
}
