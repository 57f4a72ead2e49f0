package dev.fusepanama.internal.inode;

import dev.fusepanama.internal.bind.LibFuse;
import dev.fusepanama.internal.dispatch.WorkerScratch;
import dev.fusepanama.internal.dispatch.Workers;
import dev.fusepanama.internal.view.NativeFlock;
import dev.fusepanama.internal.view.NativePollHandle;
import dev.fusepanama.internal.view.NativeStat;
import dev.fusepanama.internal.view.NativeWriteBuffer;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;

/**
 * What an inode upcall needs that would otherwise be allocated per request: the views of the
 * request, its names and structs, re-pointed each time, and native scratch memory for the
 * answer (an entry, a file info, a directory batch, a bounce area for heap data). Created on a
 * thread's first upcall and kept for its life; libfuse's workers are long-lived. The reply
 * object itself is the only allocation per request: it must outlive the call when deferred.
 */
final class InodeThread {
    /**
     * Cancellation off before anything else on the thread (see Workers.adopt); harmless on an
     * application thread that only asks {@link #serving}.
     */
    private static final ThreadLocal<InodeThread> STATE = WorkerScratch.perWorker(InodeThread::new);

    final NativeRequest request;
    final NativeName name = new NativeName();
    final NativeName newName = new NativeName();
    final NativeStat attributes = new NativeStat();
    final NativeFlock flock = new NativeFlock();
    final NativePollHandle pollHandle;
    /** The replies of the session whose request this thread is serving; null between requests. */
    private Replies serving;

    /** Scratch for answers: the views hold raw addresses into it, so this reference keeps it alive. */
    private MemorySegment area = MemorySegment.NULL;
    private MemorySegment dir = MemorySegment.NULL;
    private MemorySegment bounce = MemorySegment.NULL;
    private final WorkerScratch writes = new WorkerScratch();
    /** The direct buffer the last answer came from, and its address at position 0 ({@link #addressOf}). */
    private ByteBuffer answerBuffer;
    private long answerBase;

    private InodeThread() {
        LibFuse lib = LibFuse.get();
        this.request = new NativeRequest(lib.lowLevel);
        this.pollHandle = new NativePollHandle(lib);
    }

    static InodeThread get() {
        return STATE.get();
    }

    /** Whether the current thread is serving a request whose replies are {@code replies}'s. */
    static boolean serving(Replies replies) {
        return STATE.get().serving == replies && replies != null;
    }

    /** Where this thread builds answers (see {@link NativeReply#area}). */
    long area() {
        if (area == MemorySegment.NULL) { // this thread's first request: it is a libfuse worker
            Workers.adopt(Thread.currentThread());
            area = Arena.ofAuto().allocate(NativeReply.AREA_SIZE, 16);
        }
        return area.address();
    }

    /** Notes that this thread serves a request whose reply is {@code r}, and returns it. */
    <R extends NativeReply> R serve(R r) {
        serving = r.replies;
        return r;
    }

    /** This thread's request has returned. */
    void served() {
        serving = null;
    }

    /** This thread's buffer for a directory batch of {@code limit} bytes. */
    long dir(int limit) {
        if (dir.byteSize() < limit) {
            dir = Arena.ofAuto().allocate(Math.max(limit, 4096), 16);
        }
        return dir.address();
    }

    /** A directory batch's limit: what the kernel asked for, at most 1 MiB. */
    static int batchLimit(long size) {
        return (int) Math.min(size, 1 << 20);
    }

    /** Native memory of at least {@code size} bytes, this thread's, for copying heap data into a reply. */
    static long bounce(long size) {
        InodeThread t = get();
        if (t.bounce.byteSize() < size) {
            t.bounce = Arena.ofAuto().allocate(Math.max(size, 64 * 1024), 16);
        }
        return t.bounce.address();
    }

    /** A view of the {@code struct fuse_bufvec} at {@code bufv} (write_buf, retrieve_reply), re-pointed each time. */
    NativeWriteBuffer writeBuffer(long bufv) {
        return writes.writeBuffer(bufv);
    }

    /**
     * The address of the remaining bytes of the direct buffer {@code b}. A filesystem usually
     * answers reads from one buffer per thread: its base address is kept, because
     * {@code MemorySegment.ofBuffer} allocates (72 bytes per read, measured).
     */
    long addressOf(ByteBuffer b) {
        if (b != answerBuffer) {
            answerBase = MemorySegment.ofBuffer(b).address() - b.position();
            answerBuffer = b;
        }
        return answerBase + b.position();
    }

    /** A read-only ByteBuffer over a write request's data, reused while libfuse hands out the same memory. */
    ByteBuffer writeData(long address, long size) {
        return writes.writeData(address, size);
    }
}
