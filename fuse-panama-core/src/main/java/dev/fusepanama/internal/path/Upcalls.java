package dev.fusepanama.internal.path;

import dev.fusepanama.Errno;
import dev.fusepanama.FuseFileSystem;
import dev.fusepanama.internal.bind.LibFuse;
import dev.fusepanama.internal.bind.Native;
import dev.fusepanama.internal.bind.fuse_file_info;
import dev.fusepanama.internal.bind.fuse_operations;
import dev.fusepanama.internal.codec.NameCodec;
import dev.fusepanama.internal.dispatch.ErrorMapper;
import dev.fusepanama.internal.dispatch.InitListener;
import dev.fusepanama.internal.dispatch.Operation;
import dev.fusepanama.internal.passthrough.BackingFiles;
import dev.fusepanama.internal.view.NativeConnectionInfo;
import dev.fusepanama.internal.view.NativeFileInfo;
import dev.fusepanama.internal.view.NativeFuseConfig;
import dev.fusepanama.internal.view.NativePollHandle;
import dev.fusepanama.libc.structs.timespec;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.Set;

/**
 * How a request reaches a {@link FuseFileSystem}: libfuse calls one of these methods through an
 * upcall stub (one per registered operation, bound to this mount's instance); the method decodes
 * the path, points this thread's reusable views at the request's structs and calls the
 * filesystem. Nothing here allocates native memory or an Arena, takes a lock, or logs on
 * success; the only heap objects are the path strings.
 *
 * <p>Each package-private method is one operation: it is named like its {@code struct
 * fuse_operations} slot, and its Java signature is the C one with pointers as {@code long}
 * addresses ({@link Native}); {@link Operation} derives everything else from it. The methods may
 * throw: {@link #stub} wraps each in a handler that turns whatever it throws into the errno the
 * kernel gets ({@link ErrorMapper}), because an exception unwinding into native code would abort
 * the JVM.
 */
public final class Upcalls {

    /** The path API's operations: {@code struct fuse_operations}, these methods, {@link FuseFileSystem}. */
    public static final Operation.Table OPERATIONS = Operation.Table.derive(fuse_operations.LAYOUT_318, Upcalls.class,
            FuseFileSystem.class, Map.of(), Set.of(), Set.of("init"));

    private final FuseFileSystem fs;
    private final ErrorMapper errors;
    private final InitListener initListener;
    private final NativePollHandle.Guard guard;
    private final boolean extendedFlags;
    private final StructLayout configLayout;
    /** The mount's passthrough registrations; null where files cannot be passed through (then release is not wrapped). */
    private final BackingFiles backing;

    public Upcalls(FuseFileSystem fs, ErrorMapper errors, InitListener initListener, NativePollHandle.Guard guard,
            BackingFiles backing) {
        this.fs = fs;
        this.backing = backing;
        this.errors = errors;
        this.initListener = initListener;
        this.guard = guard;
        LibFuse lib = LibFuse.get();
        this.extendedFlags = lib.version.wantExt();
        this.configLayout = lib.layouts.fuseConfig();
    }

    private static final MethodHandles.Lookup LOOKUP = MethodHandles.lookup();
    private static final MethodHandle FAILED_INT = handler("failedInt", int.class, false);
    private static final MethodHandle FAILED_INT_AT = handler("failedIntAt", int.class, true);
    private static final MethodHandle FAILED_LONG = handler("failedLong", long.class, false);
    private static final MethodHandle FAILED_LONG_AT = handler("failedLongAt", long.class, true);
    private static final MethodHandle FAILED_POINTER = handler("failedPointer", long.class, false);
    private static final MethodHandle FAILED_VOID = handler("failedVoid", void.class, false);

    private static MethodHandle handler(String name, Class<?> result, boolean withPath) {
        MethodType type = withPath
                ? MethodType.methodType(result, String.class, Throwable.class, long.class)
                : MethodType.methodType(result, String.class, Throwable.class);
        try {
            return LOOKUP.findVirtual(Upcalls.class, name, type);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The upcall stub for {@code op}, valid as long as {@code arena}; nothing it calls can throw into native code. */
    public MemorySegment stub(Operation op, Arena arena) {
        return op.stub(LOOKUP, this, null, MethodHandles.insertArguments(failureHandler(op), 0, this, op.cName()), arena);
    }

    /** (Throwable, the path if the operation's first argument is one) → the answer to the kernel. */
    private static MethodHandle failureHandler(Operation op) {
        Class<?> result = op.upcall().getReturnType();
        if (result == void.class) {
            return FAILED_VOID;
        }
        if (result == long.class && op.authorMethod().getReturnType() == void.class) {
            return FAILED_POINTER; // init answers with the private data pointer, not a count
        }
        if (result == long.class) {
            return op.takesPath() ? FAILED_LONG_AT : FAILED_LONG;
        }
        return op.takesPath() ? FAILED_INT_AT : FAILED_INT;
    }

    private int failedInt(String op, Throwable t) {
        return failed(op, t, 0);
    }

    private int failedIntAt(String op, Throwable t, long path) {
        return failed(op, t, path);
    }

    private long failedLong(String op, Throwable t) {
        return failed(op, t, 0);
    }

    private long failedLongAt(String op, Throwable t, long path) {
        return failed(op, t, path);
    }

    private long failedPointer(String op, Throwable t) {
        failed(op, t, 0);
        return 0;
    }

    private void failedVoid(String op, Throwable t) {
        failed(op, t, 0);
    }

    /** The negative errno for {@code t}; the path is decoded only if the failure is logged. */
    private int failed(String op, Throwable t, long path) {
        try {
            return errors.fail(op, path == 0 ? () -> null : () -> NameCodec.decode(path), t);
        } catch (Throwable logging) {
            return -Errno.EIO;
        }
    }

    int getattr(long path, long stat, long fi) throws IOException {
        PathThread t = PathThread.get();
        return fs.getattr(t.path(path), t.stat.at(stat), t.fileInfo.at(fi));
    }

    int readlink(long path, long buf, long size) throws IOException {
        PathThread t = PathThread.get();
        return fs.readlink(t.path(path), t.linkTarget.at(buf, size));
    }

    int mknod(long path, int mode, long rdev) throws IOException {
        PathThread t = PathThread.get();
        return fs.mknod(t.path(path), mode, rdev);
    }

    int mkdir(long path, int mode) throws IOException {
        PathThread t = PathThread.get();
        return fs.mkdir(t.path(path), mode);
    }

    int unlink(long path) throws IOException {
        PathThread t = PathThread.get();
        return fs.unlink(t.path(path));
    }

    int rmdir(long path) throws IOException {
        PathThread t = PathThread.get();
        return fs.rmdir(t.path(path));
    }

    int symlink(long target, long link) throws IOException {
        PathThread t = PathThread.get();
        return fs.symlink(t.path(target), t.path(link));
    }

    int rename(long from, long to, int flags) throws IOException {
        PathThread t = PathThread.get();
        return fs.rename(t.path(from), t.path(to), flags);
    }

    int link(long from, long to) throws IOException {
        PathThread t = PathThread.get();
        return fs.link(t.path(from), t.path(to));
    }

    int chmod(long path, int mode, long fi) throws IOException {
        PathThread t = PathThread.get();
        return fs.chmod(t.path(path), mode, t.fileInfo.at(fi));
    }

    int chown(long path, int uid, int gid, long fi) throws IOException {
        PathThread t = PathThread.get();
        return fs.chown(t.path(path), uid, gid, t.fileInfo.at(fi));
    }

    int truncate(long path, long size, long fi) throws IOException {
        PathThread t = PathThread.get();
        return fs.truncate(t.path(path), size, t.fileInfo.at(fi));
    }

    int open(long path, long fi) throws IOException {
        return opening(path, false, 0, fi);
    }

    /**
     * open, or create with {@code mode}: where files may be passed through, the file
     * info takes a backing file while the filesystem runs and registers it with the kernel by
     * the filesystem's result.
     */
    private int opening(long path, boolean create, int mode, long fi) throws IOException {
        PathThread t = PathThread.get();
        String p = t.path(path);
        NativeFileInfo info = t.fileInfo.at(fi);
        if (backing == null) {
            return create ? fs.create(p, mode, info) : fs.open(p, info);
        }
        info.opening(backing);
        int rc = -Errno.EIO;
        try {
            rc = create ? fs.create(p, mode, info) : fs.open(p, info);
            return rc;
        } finally {
            info.settle(rc);
        }
    }

    int read(long path, long buf, long size, long offset, long fi) throws IOException {
        PathThread t = PathThread.get();
        return fs.read(t.path(path), t.readBuffer(buf, size), offset, t.fileInfo.at(fi));
    }

    int write(long path, long buf, long size, long offset, long fi) throws IOException {
        PathThread t = PathThread.get();
        return fs.write(t.path(path), t.writeData(buf, size), offset, t.fileInfo.at(fi));
    }

    int statfs(long path, long stat) throws IOException {
        PathThread t = PathThread.get();
        return fs.statfs(t.path(path), t.statvfs.at(stat));
    }

    int flush(long path, long fi) throws IOException {
        PathThread t = PathThread.get();
        return fs.flush(t.path(path), t.fileInfo.at(fi));
    }

    int release(long path, long fi) throws IOException {
        PathThread t = PathThread.get();
        try {
            return fs.release(t.path(path), t.fileInfo.at(fi));
        } finally {
            if (backing != null) {
                backing.release(fuse_file_info.fh(fi));
            }
        }
    }

    int fsync(long path, int datasync, long fi) throws IOException {
        PathThread t = PathThread.get();
        return fs.fsync(t.path(path), datasync != 0, t.fileInfo.at(fi));
    }

    int setxattr(long path, long name, long value, long size, int flags) throws IOException {
        PathThread t = PathThread.get();
        ByteBuffer v = Native.segment(value, size).asReadOnly().asByteBuffer();
        return fs.setxattr(t.path(path), t.path(name), v, flags);
    }

    int getxattr(long path, long name, long value, long size) throws IOException {
        PathThread t = PathThread.get();
        ByteBuffer v = size == 0 ? ByteBuffer.allocate(0) : Native.segment(value, size).asByteBuffer();
        return fs.getxattr(t.path(path), t.path(name), v);
    }

    int listxattr(long path, long list, long size) throws IOException {
        PathThread t = PathThread.get();
        var names = t.xattrNames.at(list, size);
        int rc = fs.listxattr(t.path(path), names);
        return rc < 0 ? rc : names.result();
    }

    int removexattr(long path, long name) throws IOException {
        PathThread t = PathThread.get();
        return fs.removexattr(t.path(path), t.path(name));
    }

    int opendir(long path, long fi) throws IOException {
        PathThread t = PathThread.get();
        return fs.opendir(t.path(path), t.fileInfo.at(fi));
    }

    int readdir(long path, long buf, long filler, long offset, long fi, int flags) throws IOException {
        PathThread t = PathThread.get();
        return fs.readdir(t.path(path), t.dirFiller.at(buf, t.filler(filler)), offset, t.fileInfo.at(fi), flags);
    }

    int releasedir(long path, long fi) throws IOException {
        PathThread t = PathThread.get();
        return fs.releasedir(t.path(path), t.fileInfo.at(fi));
    }

    int fsyncdir(long path, int datasync, long fi) throws IOException {
        PathThread t = PathThread.get();
        return fs.fsyncdir(t.path(path), datasync != 0, t.fileInfo.at(fi));
    }

    /** Always registered: applies the mount options and tells the mount it is live, whatever init does. */
    long init(long conn, long cfg) {
        InitListener.run(initListener, new NativeConnectionInfo(conn, extendedFlags), new NativeFuseConfig(cfg, configLayout),
                fs::init); // the interface's default does nothing
        return 0;
    }

    void destroy(long privateData) throws IOException {
        fs.destroy();
    }

    int access(long path, int mask) throws IOException {
        PathThread t = PathThread.get();
        return fs.access(t.path(path), mask);
    }

    int create(long path, int mode, long fi) throws IOException {
        return opening(path, true, mode, fi);
    }

    int lock(long path, long fi, int cmd, long lock) throws IOException {
        PathThread t = PathThread.get();
        return fs.lock(t.path(path), t.fileInfo.at(fi), cmd, t.flock.at(lock));
    }

    int utimens(long path, long tv, long fi) throws IOException {
        PathThread t = PathThread.get();
        return fs.utimens(t.path(path), t.atime.at(tv), t.mtime.at(tv + timespec.LAYOUT.byteSize()), t.fileInfo.at(fi));
    }

    int bmap(long path, long blocksize, long idx) throws IOException {
        PathThread t = PathThread.get();
        long block = fs.bmap(t.path(path), blocksize, Native.getAddress(idx));
        if (block < 0) {
            return (int) block;
        }
        Native.putAddress(idx, block);
        return 0;
    }

    int ioctl(long path, int cmd, long arg, long fi, int flags, long data) throws IOException {
        PathThread t = PathThread.get();
        // _IOC_SIZE (asm-generic/ioctl.h): libfuse sizes the data buffer by it.
        int size = (cmd >>> 16) & 0x3FFF;
        ByteBuffer d = data == 0 || size == 0 ? null : Native.segment(data, size).asByteBuffer();
        return fs.ioctl(t.path(path), cmd, arg, t.fileInfo.at(fi), flags, d);
    }

    int poll(long path, long fi, long ph, long reventsp) throws IOException {
        PathThread t = PathThread.get();
        NativePollHandle handle = t.pollHandle.at(ph, guard);
        try {
            int events = fs.poll(t.path(path), t.fileInfo.at(fi), handle);
            if (events < 0) {
                return events;
            }
            Native.putInt(reventsp, events);
            return 0;
        } finally {
            t.pollHandle.afterPoll();
        }
    }

    int write_buf(long path, long buf, long offset, long fi) throws IOException {
        PathThread t = PathThread.get();
        return fs.writeBuf(t.path(path), t.writeBuffer(buf), offset, t.fileInfo.at(fi));
    }

    int read_buf(long path, long bufp, long size, long offset, long fi) throws IOException {
        PathThread t = PathThread.get();
        int rc = fs.readBuf(t.path(path), t.readReply.at(bufp), size, offset, t.fileInfo.at(fi));
        if (rc >= 0) {
            t.readReply.ensureReply();
            return 0;
        }
        return rc;
    }

    int flock(long path, long fi, int op) throws IOException {
        PathThread t = PathThread.get();
        return fs.flock(t.path(path), t.fileInfo.at(fi), op);
    }

    int fallocate(long path, int mode, long offset, long length, long fi) throws IOException {
        PathThread t = PathThread.get();
        return fs.fallocate(t.path(path), mode, offset, length, t.fileInfo.at(fi));
    }

    long copy_file_range(long pathIn, long fiIn, long offIn, long pathOut, long fiOut, long offOut, long size, int flags) throws IOException {
        PathThread t = PathThread.get();
        return fs.copyFileRange(t.path(pathIn), t.fileInfo.at(fiIn), offIn, t.path(pathOut), t.fileInfoOut.at(fiOut), offOut, size, flags);
    }

    int statx(long path, int flags, int mask, long stx, long fi) throws IOException {
        PathThread t = PathThread.get();
        return fs.statx(t.path(path), flags, mask, t.statx.at(stx), t.fileInfo.at(fi));
    }

    long lseek(long path, long offset, int whence, long fi) throws IOException {
        PathThread t = PathThread.get();
        return fs.lseek(t.path(path), offset, whence, t.fileInfo.at(fi));
    }
}
