package dev.joule.io.pipeline;

import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * The only class that names Netty: {@link RecordSession#addByteBuf(ByteBuf)} delegates here, so a
 * session that is never given a {@code ByteBuf} never loads Netty and works without it on the class
 * path (the dependency is optional).
 */
final class NettyRecords {
  private NettyRecords() {}

  /** Adds the readable bytes of {@code records} (not retained, reader index unchanged). */
  static void add(RecordSession session, ByteBuf records) throws IOException {
    if (!session.takesParts()) {
      // entries are made record by record: one contiguous view (a copy only if composite)
      session.add(records.nioBuffer(records.readerIndex(), records.readableBytes()));
      return;
    }
    for (ByteBuffer b : records.nioBuffers(records.readerIndex(), records.readableBytes())) {
      session.addPart(b);
    }
  }
}
