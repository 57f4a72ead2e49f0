package dev.fusepanama.internal.dispatch;

import dev.fusepanama.internal.bind.Cancellation;
import dev.fusepanama.internal.bind.LibFuse;
import dev.fusepanama.internal.view.BufferView;
import dev.fusepanama.internal.view.NativeWriteBuffer;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.util.function.Supplier;

/**
 * What a worker thread of either API keeps for writes, made once per thread: a read-only
 * ByteBuffer re-pointed at each write request's data, and a view of a {@code struct fuse_bufvec}
 * (write_buf, retrieve_reply) with a 64 KiB bounce area of its own. Each API's per-thread state
 * ({@code PathThread}, {@code InodeThread}) holds one, and is made by {@link #perWorker}.
 */
public final class WorkerScratch {
    private static final int BOUNCE_SIZE = 64 * 1024;

    private final BufferView writeData = new BufferView(true);
    private NativeWriteBuffer writeBuffer;
    /** The bufvec view's memory: the view holds raw addresses into it, so this reference keeps it alive. */
    private MemorySegment writeScratch = MemorySegment.NULL;

    /**
     * A thread-local of per-thread state made by {@code make} on a thread's first request, with
     * cancellation off before anything else on the thread (see {@link Workers#adopt}).
     */
    public static <T> ThreadLocal<T> perWorker(Supplier<T> make) {
        return ThreadLocal.withInitial(() -> {
            Cancellation.disableForLife();
            return make.get();
        });
    }

    /** A read-only ByteBuffer over a write request's {@code size} bytes at {@code address}, reused while libfuse hands out the same memory. */
    public ByteBuffer writeData(long address, long size) {
        return writeData.over(address, size);
    }

    /** A view of the {@code struct fuse_bufvec} at {@code bufv}, re-pointed each time. */
    public NativeWriteBuffer writeBuffer(long bufv) {
        if (writeBuffer == null) {
            LibFuse lib = LibFuse.get();
            long vec = lib.layouts.bufvecSize();
            MemorySegment scratch = Arena.ofAuto().allocate(vec + BOUNCE_SIZE, 16);
            writeScratch = scratch;
            writeBuffer = new NativeWriteBuffer(lib, scratch.address(), scratch.address() + vec, BOUNCE_SIZE);
        }
        return writeBuffer.at(bufv);
    }
}
