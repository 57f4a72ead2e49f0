package dev.fusepanama.internal.view;

import dev.fusepanama.ReadReply;
import dev.fusepanama.internal.bind.Native;
import dev.fusepanama.internal.bind.StructLayouts;
import dev.fusepanama.internal.bind.fuse_buf;
import dev.fusepanama.internal.bind.fuse_bufvec;
import dev.fusepanama.libc.NativeMemory;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;

/**
 * {@link ReadReply} over read_buf's {@code struct fuse_bufvec **bufp}. libfuse {@code free()}s the
 * vector and any memory buffer in it after replying, so both come from {@code malloc}: the one
 * place the binding allocates native memory during a request, as libfuse's own contract requires
 * (its built-in read path does the same).
 */
public final class NativeReadReply implements ReadReply {
    private final long bufSize;
    private final long bufvecSize;
    private long bufp;

    /** @param layouts the loaded release's, for the size of a {@code fuse_bufvec} */
    public NativeReadReply(StructLayouts layouts) {
        this.bufSize = layouts.bufSize();
        this.bufvecSize = layouts.bufvecSize();
    }

    public NativeReadReply at(long bufp) {
        this.bufp = bufp;
        Native.putAddress(bufp, 0);
        return this;
    }

    @Override
    public void fromFd(int fd, long position, long length) {
        long v = vector(length);
        long b = fuse_bufvec.buf(v, 0, bufSize);
        fuse_buf.flags(b, fuse_buf.FUSE_BUF_IS_FD | fuse_buf.FUSE_BUF_FD_SEEK);
        fuse_buf.fd(b, fd);
        fuse_buf.pos(b, position);
    }

    @Override
    public void fromBytes(ByteBuffer data) {
        int n = data.remaining();
        long v = vector(n);
        long mem = NativeMemory.malloc(Math.max(n, 1));
        if (mem == 0) {
            throw new OutOfMemoryError("malloc(" + n + ") failed");
        }
        MemorySegment.copy(MemorySegment.ofBuffer(data), ValueLayout.JAVA_BYTE, 0, Native.ALL, ValueLayout.JAVA_BYTE, mem, n);
        data.position(data.position() + n);
        fuse_buf.mem(fuse_bufvec.buf(v, 0, bufSize), mem);
    }

    /** After read_buf returned success: a reply is mandatory, so an empty one (end of file) if none was given. */
    public void ensureReply() {
        if (Native.getAddress(bufp) == 0) {
            vector(0);
        }
    }

    private long vector(long size) {
        if (Native.getAddress(bufp) != 0) {
            throw new IllegalStateException("read_buf already answered");
        }
        long v = NativeMemory.malloc(bufvecSize);
        if (v == 0) {
            throw new OutOfMemoryError("malloc(fuse_bufvec) failed");
        }
        fuse_bufvec.init(v, bufvecSize, size);
        Native.putAddress(bufp, v);
        return v;
    }
}
