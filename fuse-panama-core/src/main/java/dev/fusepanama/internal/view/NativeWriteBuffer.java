package dev.fusepanama.internal.view;

import dev.fusepanama.ErrnoException;
import dev.fusepanama.WriteBuffer;
import dev.fusepanama.internal.bind.LibFuse;
import dev.fusepanama.internal.bind.fuse_buf;
import dev.fusepanama.internal.bind.fuse_bufvec;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;

/**
 * {@link WriteBuffer} over write_buf's source {@code struct fuse_bufvec *}. Copies go through
 * {@code fuse_buf_copy}, which splices pipe→file when both ends allow. The destination vector
 * lives in this thread's scratch memory; heap buffers are filled through a scratch bounce area.
 */
public final class NativeWriteBuffer implements WriteBuffer {
    private final LibFuse lib;
    private final long bufSize;
    private final long bufvecSize;
    private final long destination;
    private final long bounce;
    private final long bounceSize;
    private long source;

    /** @param destination scratch for one fuse_bufvec; @param bounce scratch for heap copies */
    public NativeWriteBuffer(LibFuse lib, long destination, long bounce, long bounceSize) {
        this.lib = lib;
        this.bufSize = lib.layouts.bufSize();
        this.bufvecSize = lib.layouts.bufvecSize();
        this.destination = destination;
        this.bounce = bounce;
        this.bounceSize = bounceSize;
    }

    public NativeWriteBuffer at(long source) {
        this.source = source;
        return this;
    }

    @Override
    public long size() {
        long total = 0;
        long count = fuse_bufvec.count(source);
        for (long i = fuse_bufvec.idx(source); i < count; i++) {
            total += fuse_buf.size(fuse_bufvec.buf(source, i, bufSize));
        }
        return total - fuse_bufvec.off(source);
    }

    @Override
    public long copyToFd(int fd, long position) throws IOException {
        fuse_bufvec.init(destination, bufvecSize, size());
        long b = fuse_bufvec.buf(destination, 0, bufSize);
        fuse_buf.flags(b, fuse_buf.FUSE_BUF_IS_FD | fuse_buf.FUSE_BUF_FD_SEEK);
        fuse_buf.fd(b, fd);
        fuse_buf.pos(b, position);
        return copy();
    }

    @Override
    public long copyTo(ByteBuffer target) throws IOException {
        long want = Math.min(size(), target.remaining());
        if (target.isDirect()) {
            long address = MemorySegment.ofBuffer(target).address();
            long n = copyToMemory(address, want);
            target.position(target.position() + (int) n);
            return n;
        }
        long done = 0;
        while (done < want) {
            long n = copyToMemory(bounce, Math.min(bounceSize, want - done));
            if (n <= 0) {
                break;
            }
            target.put(MemorySegment.ofAddress(bounce).reinterpret(n).asByteBuffer());
            done += n;
        }
        return done;
    }

    private long copyToMemory(long address, long size) throws IOException {
        fuse_bufvec.init(destination, bufvecSize, size);
        fuse_buf.mem(fuse_bufvec.buf(destination, 0, bufSize), address);
        return copy();
    }

    /** fuse_buf_copy advances the source vector, so successive copies continue where the last stopped. */
    private long copy() throws IOException {
        long n;
        try {
            n = (long) lib.bufCopy.invokeExact(destination, source, 0);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
        if (n < 0) {
            throw new ErrnoException((int) -n);
        }
        return n;
    }
}
