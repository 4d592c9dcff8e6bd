package dev.joule.core.gensort;

/** The three gensort record layouts (docs/formats.md, Binary records to ASCII records). */
public enum RecordLayout {
  /** gensort ≥ 1.3 binary records: ten masked 10-byte LCG chunks (the 1.5 default, §3). */
  BINARY,
  /** gensort 1.1/1.2 and Hadoop TeraGen binary records: key, record number, filler (§4). */
  LEGACY,
  /** ASCII records, base-95 printable key, CR LF terminated ({@code -a}, §5). */
  ASCII
}
