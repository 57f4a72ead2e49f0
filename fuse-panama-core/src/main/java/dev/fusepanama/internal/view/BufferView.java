package dev.fusepanama.internal.view;

import dev.fusepanama.internal.bind.Native;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;

/**
 * A {@link ByteBuffer} over native memory libfuse hands a request (a read's buffer, a write's
 * data), made again only when the memory changes: libfuse's workers reuse their buffers, so a
 * thread's view is usually the one it made for its first request. One per thread and purpose.
 */
public final class BufferView {
    private static final ByteBuffer EMPTY = ByteBuffer.allocateDirect(0);
    private static final ByteBuffer EMPTY_READ_ONLY = EMPTY.asReadOnlyBuffer();
    private final boolean readOnly;
    private long address;
    private long size = -1;
    private ByteBuffer buffer;

    /** @param readOnly whether the filesystem only reads the bytes (a write's data) */
    public BufferView(boolean readOnly) {
        this.readOnly = readOnly;
    }

    /** A buffer over the {@code length} bytes at {@code at}, position 0 and limit {@code length}. */
    public ByteBuffer over(long at, long length) {
        if (length == 0) {
            return readOnly ? EMPTY_READ_ONLY : EMPTY;
        }
        if (at != address || length != size) {
            MemorySegment s = Native.segment(at, length);
            buffer = (readOnly ? s.asReadOnly() : s).asByteBuffer();
            address = at;
            size = length;
        }
        return buffer.clear();
    }
}
