package dev.joule.io.plan;

/**
 * What a plan knows about the records before sorting them: whether they are fixed records read in
 * place into arenas (their entries are the records), and, for records parsed into entries (lines,
 * length-prefixed rows, fixed records with a derived key), the average input bytes per record and
 * entry bytes per record, measured on a sample of the input or assumed.
 *
 * @param inPlace fixed records with a byte-range key, read straight into arenas
 * @param inputBytesPerRecord average bytes a record takes in the input (with its framing)
 * @param entryBytesPerRecord average bytes of its entry (header, stored key, record)
 * @param linesInAnyOrder the records are lines that a one-pass sort may parse on several threads:
 *     the sort's output cannot tell apart the input order of lines that compare equal
 */
public record RecordEstimate(
    boolean inPlace,
    double inputBytesPerRecord,
    double entryBytesPerRecord,
    boolean linesInAnyOrder) {
  /**
   * What a plan assumes of parsed records when it has not seen them (a session's input): 64-byte
   * records, an entry of twice that. Runs end early, never late, when the guess is off: a chunk
   * ends when its arena or its index is full.
   */
  public static final RecordEstimate UNSEEN = new RecordEstimate(false, 64, 128);

  /** An estimate of records that are parsed on one thread ({@code linesInAnyOrder} false). */
  public RecordEstimate(boolean inPlace, double inputBytesPerRecord, double entryBytesPerRecord) {
    this(inPlace, inputBytesPerRecord, entryBytesPerRecord, false);
  }

  /** Validates the averages. */
  public RecordEstimate {
    if (!(inputBytesPerRecord >= 1) || !(entryBytesPerRecord >= 1)) {
      throw new IllegalArgumentException(
          "bytes per record must be at least 1: "
              + inputBytesPerRecord
              + ", "
              + entryBytesPerRecord);
    }
  }

  /** Fixed records of {@code recordSize} bytes read in place. */
  public static RecordEstimate fixed(int recordSize) {
    return new RecordEstimate(true, recordSize, recordSize);
  }
}
