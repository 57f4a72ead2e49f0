package dev.fusepanama.internal.path;

import dev.fusepanama.internal.bind.LibFuse;
import dev.fusepanama.internal.codec.NameCodec;
import dev.fusepanama.internal.dispatch.WorkerScratch;
import dev.fusepanama.internal.dispatch.Workers;
import dev.fusepanama.internal.view.BufferView;
import dev.fusepanama.internal.view.FillerHandles;
import dev.fusepanama.internal.view.NativeDirFiller;
import dev.fusepanama.internal.view.NativeFileInfo;
import dev.fusepanama.internal.view.NativeFlock;
import dev.fusepanama.internal.view.NativeLinkTarget;
import dev.fusepanama.internal.view.NativePollHandle;
import dev.fusepanama.internal.view.NativeReadReply;
import dev.fusepanama.internal.view.NativeStat;
import dev.fusepanama.internal.view.NativeStatVfs;
import dev.fusepanama.internal.view.NativeStatx;
import dev.fusepanama.internal.view.NativeTimespec;
import dev.fusepanama.internal.view.NativeWriteBuffer;
import dev.fusepanama.internal.view.NativeXattrNames;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.nio.ByteBuffer;

/**
 * Everything an upcall needs that would otherwise be allocated per request: the typed views,
 * re-pointed at each request's structs, one block of native scratch memory (a readdir name, a
 * struct stat), and what writes need ({@link WorkerScratch}, as the inode API's threads). Created on a thread's first upcall and kept for
 * the thread's life; libfuse's workers are long-lived (the loop keeps idle threads).
 */
final class PathThread {
    /** PATH_MAX: room for any name plus its NUL. */
    private static final long NAME_CAPACITY = 4096;
    private static final long STAT_SIZE = dev.fusepanama.libc.structs.stat.SIZE;

    /** Cancellation off before anything else on the thread: see {@link Workers#adopt}. */
    private static final ThreadLocal<PathThread> STATE = WorkerScratch.perWorker(PathThread::new);

    final NativeStat stat = new NativeStat();
    final NativeStatx statx = new NativeStatx();
    final NativeStatVfs statvfs = new NativeStatVfs();
    final NativeFileInfo fileInfo;
    final NativeFileInfo fileInfoOut;
    final NativeTimespec atime = new NativeTimespec();
    final NativeTimespec mtime = new NativeTimespec();
    final NativeFlock flock = new NativeFlock();
    final NativeLinkTarget linkTarget = new NativeLinkTarget();
    final NativeXattrNames xattrNames = new NativeXattrNames();
    final NativeReadReply readReply;
    final NativeDirFiller dirFiller;
    final NativePollHandle pollHandle;
    private final WorkerScratch writes = new WorkerScratch();

    private final NameCodec.Scratch names = new NameCodec.Scratch();
    private long fillerAddress;
    private MethodHandle filler;

    /**
     * The scratch block. Views hold raw addresses into it, so this reference is what keeps the
     * memory alive: an automatic arena frees a segment once the segment object is unreachable.
     */
    private final MemorySegment scratch;

    private final BufferView readBuffer = new BufferView(false);

    private PathThread() {
        Workers.adopt(Thread.currentThread());
        LibFuse lib = LibFuse.get();
        // Freed by the GC when the thread and this state are gone.
        this.scratch = Arena.ofAuto().allocate(NAME_CAPACITY + STAT_SIZE, 16);
        long base = scratch.address();
        long statAt = base + NAME_CAPACITY;
        this.fileInfo = new NativeFileInfo(lib.layouts.fileInfoBits());
        this.fileInfoOut = new NativeFileInfo(lib.layouts.fileInfoBits());
        this.readReply = new NativeReadReply(lib.layouts);
        this.dirFiller = new NativeDirFiller(base, NAME_CAPACITY, statAt);
        this.pollHandle = new NativePollHandle(lib);
    }

    static PathThread get() {
        return STATE.get();
    }

    /** The path or name at {@code address}, decoded with this thread's scratch arrays. */
    String path(long address) {
        return NameCodec.decode(address, names);
    }

    /** The filler handle for {@code address}; the last one is remembered per thread. */
    MethodHandle filler(long address) {
        if (address != fillerAddress) {
            filler = FillerHandles.forAddress(address);
            fillerAddress = address;
        }
        return filler;
    }

    /** A ByteBuffer over libfuse's read buffer; reused while libfuse hands out the same memory. */
    ByteBuffer readBuffer(long address, long size) {
        return readBuffer.over(address, size);
    }

    /** A read-only ByteBuffer over a write request's data. */
    ByteBuffer writeData(long address, long size) {
        return writes.writeData(address, size);
    }

    /** A view of the {@code struct fuse_bufvec} at {@code bufv} (write_buf), re-pointed each time. */
    NativeWriteBuffer writeBuffer(long bufv) {
        return writes.writeBuffer(bufv);
    }
}
