package dev.fusepanama.internal.view;

import dev.fusepanama.LinkTarget;
import dev.fusepanama.internal.bind.Native;
import dev.fusepanama.internal.codec.NameCodec;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/** {@link LinkTarget} over readlink's {@code char *buf, size_t len}; always NUL-terminates. */
public final class NativeLinkTarget implements LinkTarget {
    private long buffer;
    private long length;

    public NativeLinkTarget at(long buffer, long length) {
        this.buffer = buffer;
        this.length = length;
        return this;
    }

    @Override
    public void set(String target) {
        if (length <= 0) {
            return;
        }
        if (NameCodec.encodeTo(target, buffer, length) < 0) {
            byte[] bytes = NameCodec.encode(target);
            int n = (int) Math.min(bytes.length, length - 1);
            MemorySegment.copy(bytes, 0, Native.ALL, ValueLayout.JAVA_BYTE, buffer, n);
            Native.putByte(buffer + n, (byte) 0);
        }
    }
}
