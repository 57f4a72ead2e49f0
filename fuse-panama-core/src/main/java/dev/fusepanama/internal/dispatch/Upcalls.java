package dev.fusepanama.internal.dispatch;

import dev.fusepanama.Errno;
import dev.fusepanama.FuseFileSystem;
import dev.fusepanama.internal.bind.LibFuse;
import dev.fusepanama.internal.bind.Native;
import dev.fusepanama.internal.bind.timespec;
import dev.fusepanama.internal.view.NativeConnectionInfo;
import dev.fusepanama.internal.view.NativeFuseConfig;
import dev.fusepanama.internal.view.NativePollHandle;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.nio.ByteBuffer;
import java.util.Set;

/**
 * How a request reaches a {@link FuseFileSystem}: libfuse calls one of these methods through an
 * upcall stub (one per registered operation, bound to this mount's instance); the method decodes
 * the path, points this thread's reusable views at the request's structs, calls the filesystem,
 * and turns anything thrown into an errno. Nothing here allocates native memory or an Arena,
 * takes a lock, or logs on success; the only heap objects are the path strings.
 *
 * <p>Method names and parameters mirror {@code struct fuse_operations}; pointers arrive as
 * {@code long} addresses ({@link Native}). No exception may leave these methods: an exception
 * unwinding into native code aborts the JVM.
 */
public final class Upcalls {

    /** What the mount needs to know about init, which runs on a libfuse thread. */
    public interface InitListener {
        /** Before the filesystem's init: apply mount options to the connection and config. */
        void configure(NativeConnectionInfo connection, NativeFuseConfig config);

        /** After it: {@code failure} is what it threw, or null. */
        void initialized(Throwable failure);
    }

    private final FuseFileSystem fs;
    private final ErrorMapper errors;
    private final InitListener initListener;
    private final boolean userInit;
    private final boolean extendedFlags;
    private final StructLayout configLayout;

    public Upcalls(FuseFileSystem fs, ErrorMapper errors, InitListener initListener, Set<Operation> implemented) {
        this.fs = fs;
        this.errors = errors;
        this.initListener = initListener;
        this.userInit = implemented.contains(Operation.INIT);
        LibFuse lib = LibFuse.get();
        this.extendedFlags = lib.version.wantExt();
        this.configLayout = lib.layouts.fuseConfig();
    }

    /** The upcall stub for {@code op}, valid as long as {@code arena}. */
    public MemorySegment stub(Operation op, Arena arena) {
        try {
            MethodHandle target = MethodHandles.lookup()
                    .findVirtual(Upcalls.class, op.cName, op.descriptor.toMethodType())
                    .bindTo(this);
            return Native.LINKER.upcallStub(target, op.descriptor, arena);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError("no upcall method for " + op.cName, e);
        }
    }

    private int fail(String op, String path, Throwable t) {
        try {
            return errors.fail(op, path, t);
        } catch (Throwable logging) {
            return -Errno.EIO;
        }
    }

    int getattr(long path, long stat, long fi) {
        String p = null;
        try {
            ThreadState t = ThreadState.get();
            p = t.path(path);
            return fs.getattr(p, t.stat.at(stat), t.fileInfo.at(fi));
        } catch (Throwable e) {
            return fail("getattr", p, e);
        }
    }

    int readlink(long path, long buf, long size) {
        String p = null;
        try {
            ThreadState t = ThreadState.get();
            p = t.path(path);
            return fs.readlink(p, t.linkTarget.at(buf, size));
        } catch (Throwable e) {
            return fail("readlink", p, e);
        }
    }

    int mknod(long path, int mode, long rdev) {
        String p = null;
        try {
            ThreadState t = ThreadState.get();
            p = t.path(path);
            return fs.mknod(p, mode, rdev);
        } catch (Throwable e) {
            return fail("mknod", p, e);
        }
    }

    int mkdir(long path, int mode) {
        String p = null;
        try {
            ThreadState t = ThreadState.get();
            p = t.path(path);
            return fs.mkdir(p, mode);
        } catch (Throwable e) {
            return fail("mkdir", p, e);
        }
    }

    int unlink(long path) {
        String p = null;
        try {
            ThreadState t = ThreadState.get();
            p = t.path(path);
            return fs.unlink(p);
        } catch (Throwable e) {
            return fail("unlink", p, e);
        }
    }

    int rmdir(long path) {
        String p = null;
        try {
            ThreadState t = ThreadState.get();
            p = t.path(path);
            return fs.rmdir(p);
        } catch (Throwable e) {
            return fail("rmdir", p, e);
        }
    }

    int symlink(long target, long link) {
        String l = null;
        try {
            ThreadState t = ThreadState.get();
            l = t.path(link);
            return fs.symlink(t.path(target), l);
        } catch (Throwable e) {
            return fail("symlink", l, e);
        }
    }

    int rename(long from, long to, int flags) {
        String p = null;
        try {
            ThreadState t = ThreadState.get();
            p = t.path(from);
            return fs.rename(p, t.path(to), flags);
        } catch (Throwable e) {
            return fail("rename", p, e);
        }
    }

    int link(long from, long to) {
        String p = null;
        try {
            ThreadState t = ThreadState.get();
            p = t.path(from);
            return fs.link(p, t.path(to));
        } catch (Throwable e) {
            return fail("link", p, e);
        }
    }

    int chmod(long path, int mode, long fi) {
        String p = null;
        try {
            ThreadState t = ThreadState.get();
            p = t.path(path);
            return fs.chmod(p, mode, t.fileInfo.at(fi));
        } catch (Throwable e) {
            return fail("chmod", p, e);
        }
    }

    int chown(long path, int uid, int gid, long fi) {
        String p = null;
        try {
            ThreadState t = ThreadState.get();
            p = t.path(path);
            return fs.chown(p, uid, gid, t.fileInfo.at(fi));
        } catch (Throwable e) {
            return fail("chown", p, e);
        }
    }

    int truncate(long path, long size, long fi) {
        String p = null;
        try {
            ThreadState t = ThreadState.get();
            p = t.path(path);
            return fs.truncate(p, size, t.fileInfo.at(fi));
        } catch (Throwable e) {
            return fail("truncate", p, e);
        }
    }

    int open(long path, long fi) {
        String p = null;
        try {
            ThreadState t = ThreadState.get();
            p = t.path(path);
            return fs.open(p, t.fileInfo.at(fi));
        } catch (Throwable e) {
            return fail("open", p, e);
        }
    }

    int read(long path, long buf, long size, long offset, long fi) {
        String p = null;
        try {
            ThreadState t = ThreadState.get();
            p = t.path(path);
            return fs.read(p, t.readBuffer(buf, size), offset, t.fileInfo.at(fi));
        } catch (Throwable e) {
            return fail("read", p, e);
        }
    }

    int write(long path, long buf, long size, long offset, long fi) {
        String p = null;
        try {
            ThreadState t = ThreadState.get();
            p = t.path(path);
            return fs.write(p, t.writeData(buf, size), offset, t.fileInfo.at(fi));
        } catch (Throwable e) {
            return fail("write", p, e);
        }
    }

    int statfs(long path, long stat) {
        String p = null;
        try {
            ThreadState t = ThreadState.get();
            p = t.path(path);
            return fs.statfs(p, t.statvfs.at(stat));
        } catch (Throwable e) {
            return fail("statfs", p, e);
        }
    }

    int flush(long path, long fi) {
        String p = null;
        try {
            ThreadState t = ThreadState.get();
            p = t.path(path);
            return fs.flush(p, t.fileInfo.at(fi));
        } catch (Throwable e) {
            return fail("flush", p, e);
        }
    }

    int release(long path, long fi) {
        String p = null;
        try {
            ThreadState t = ThreadState.get();
            p = t.path(path);
            return fs.release(p, t.fileInfo.at(fi));
        } catch (Throwable e) {
            return fail("release", p, e);
        }
    }

    int fsync(long path, int datasync, long fi) {
        String p = null;
        try {
            ThreadState t = ThreadState.get();
            p = t.path(path);
            return fs.fsync(p, datasync != 0, t.fileInfo.at(fi));
        } catch (Throwable e) {
            return fail("fsync", p, e);
        }
    }

    int setxattr(long path, long name, long value, long size, int flags) {
        String p = null;
        try {
            ThreadState t = ThreadState.get();
            p = t.path(path);
            ByteBuffer v = Native.segment(value, size).asReadOnly().asByteBuffer();
            return fs.setxattr(p, t.path(name), v, flags);
        } catch (Throwable e) {
            return fail("setxattr", p, e);
        }
    }

    int getxattr(long path, long name, long value, long size) {
        String p = null;
        try {
            ThreadState t = ThreadState.get();
            p = t.path(path);
            ByteBuffer v = size == 0 ? ByteBuffer.allocate(0) : Native.segment(value, size).asByteBuffer();
            return fs.getxattr(p, t.path(name), v);
        } catch (Throwable e) {
            return fail("getxattr", p, e);
        }
    }

    int listxattr(long path, long list, long size) {
        String p = null;
        try {
            ThreadState t = ThreadState.get();
            p = t.path(path);
            var names = t.xattrNames.at(list, size);
            int rc = fs.listxattr(p, names);
            return rc < 0 ? rc : names.result();
        } catch (Throwable e) {
            return fail("listxattr", p, e);
        }
    }

    int removexattr(long path, long name) {
        String p = null;
        try {
            ThreadState t = ThreadState.get();
            p = t.path(path);
            return fs.removexattr(p, t.path(name));
        } catch (Throwable e) {
            return fail("removexattr", p, e);
        }
    }

    int opendir(long path, long fi) {
        String p = null;
        try {
            ThreadState t = ThreadState.get();
            p = t.path(path);
            return fs.opendir(p, t.fileInfo.at(fi));
        } catch (Throwable e) {
            return fail("opendir", p, e);
        }
    }

    int readdir(long path, long buf, long filler, long offset, long fi, int flags) {
        String p = null;
        try {
            ThreadState t = ThreadState.get();
            p = t.path(path);
            return fs.readdir(p, t.dirFiller.at(buf, t.filler(filler)), offset, t.fileInfo.at(fi), flags);
        } catch (Throwable e) {
            return fail("readdir", p, e);
        }
    }

    int releasedir(long path, long fi) {
        String p = null;
        try {
            ThreadState t = ThreadState.get();
            p = t.path(path);
            return fs.releasedir(p, t.fileInfo.at(fi));
        } catch (Throwable e) {
            return fail("releasedir", p, e);
        }
    }

    int fsyncdir(long path, int datasync, long fi) {
        String p = null;
        try {
            ThreadState t = ThreadState.get();
            p = t.path(path);
            return fs.fsyncdir(p, datasync != 0, t.fileInfo.at(fi));
        } catch (Throwable e) {
            return fail("fsyncdir", p, e);
        }
    }

    /** Always registered: applies the mount options and tells the mount it is live. */
    long init(long conn, long cfg) {
        Throwable failure = null;
        try {
            NativeConnectionInfo connection = new NativeConnectionInfo(conn, extendedFlags);
            NativeFuseConfig config = new NativeFuseConfig(cfg, configLayout);
            initListener.configure(connection, config);
            if (userInit) {
                fs.init(connection, config);
            }
        } catch (Throwable e) {
            failure = e;
        }
        try {
            initListener.initialized(failure);
        } catch (Throwable ignored) {
            // the mount is waiting on this; nothing more can be done from a libfuse thread
        }
        return 0;
    }

    void destroy(long privateData) {
        try {
            fs.destroy();
        } catch (Throwable e) {
            fail("destroy", null, e);
        }
    }

    int access(long path, int mask) {
        String p = null;
        try {
            ThreadState t = ThreadState.get();
            p = t.path(path);
            return fs.access(p, mask);
        } catch (Throwable e) {
            return fail("access", p, e);
        }
    }

    int create(long path, int mode, long fi) {
        String p = null;
        try {
            ThreadState t = ThreadState.get();
            p = t.path(path);
            return fs.create(p, mode, t.fileInfo.at(fi));
        } catch (Throwable e) {
            return fail("create", p, e);
        }
    }

    int lock(long path, long fi, int cmd, long lock) {
        String p = null;
        try {
            ThreadState t = ThreadState.get();
            p = t.path(path);
            return fs.lock(p, t.fileInfo.at(fi), cmd, t.flock.at(lock));
        } catch (Throwable e) {
            return fail("lock", p, e);
        }
    }

    int utimens(long path, long tv, long fi) {
        String p = null;
        try {
            ThreadState t = ThreadState.get();
            p = t.path(path);
            return fs.utimens(p, t.atime.at(tv), t.mtime.at(tv + timespec.LAYOUT.byteSize()), t.fileInfo.at(fi));
        } catch (Throwable e) {
            return fail("utimens", p, e);
        }
    }

    int bmap(long path, long blocksize, long idx) {
        String p = null;
        try {
            ThreadState t = ThreadState.get();
            p = t.path(path);
            long block = fs.bmap(p, blocksize, Native.getAddress(idx));
            if (block < 0) {
                return (int) block;
            }
            Native.putAddress(idx, block);
            return 0;
        } catch (Throwable e) {
            return fail("bmap", p, e);
        }
    }

    int ioctl(long path, int cmd, long arg, long fi, int flags, long data) {
        String p = null;
        try {
            ThreadState t = ThreadState.get();
            p = t.path(path);
            // _IOC_SIZE (asm-generic/ioctl.h): libfuse sizes the data buffer by it.
            int size = (cmd >>> 16) & 0x3FFF;
            ByteBuffer d = data == 0 || size == 0 ? null : Native.segment(data, size).asByteBuffer();
            return fs.ioctl(p, cmd, arg, t.fileInfo.at(fi), flags, d);
        } catch (Throwable e) {
            return fail("ioctl", p, e);
        }
    }

    int poll(long path, long fi, long ph, long reventsp) {
        String p = null;
        NativePollHandle handle = null;
        try {
            ThreadState t = ThreadState.get();
            handle = t.pollHandle.at(ph);
            p = t.path(path);
            int events = fs.poll(p, t.fileInfo.at(fi), handle);
            if (events < 0) {
                return events;
            }
            Native.putInt(reventsp, events);
            return 0;
        } catch (Throwable e) {
            return fail("poll", p, e);
        } finally {
            // Nothing may escape an upcall: releasing the handle is guarded like the call itself.
            try {
                if (handle != null) {
                    handle.afterPoll();
                } else if (ph != 0) {
                    NativePollHandle.destroyUnclaimed(ph);
                }
            } catch (Throwable e) {
                fail("poll", p, e);
            }
        }
    }

    int write_buf(long path, long buf, long offset, long fi) {
        String p = null;
        try {
            ThreadState t = ThreadState.get();
            p = t.path(path);
            return fs.writeBuf(p, t.writeBuffer.at(buf), offset, t.fileInfo.at(fi));
        } catch (Throwable e) {
            return fail("write_buf", p, e);
        }
    }

    int read_buf(long path, long bufp, long size, long offset, long fi) {
        String p = null;
        try {
            ThreadState t = ThreadState.get();
            p = t.path(path);
            int rc = fs.readBuf(p, t.readReply.at(bufp), size, offset, t.fileInfo.at(fi));
            if (rc >= 0) {
                t.readReply.ensureReply();
                return 0;
            }
            return rc;
        } catch (Throwable e) {
            return fail("read_buf", p, e);
        }
    }

    int flock(long path, long fi, int op) {
        String p = null;
        try {
            ThreadState t = ThreadState.get();
            p = t.path(path);
            return fs.flock(p, t.fileInfo.at(fi), op);
        } catch (Throwable e) {
            return fail("flock", p, e);
        }
    }

    int fallocate(long path, int mode, long offset, long length, long fi) {
        String p = null;
        try {
            ThreadState t = ThreadState.get();
            p = t.path(path);
            return fs.fallocate(p, mode, offset, length, t.fileInfo.at(fi));
        } catch (Throwable e) {
            return fail("fallocate", p, e);
        }
    }

    long copy_file_range(long pathIn, long fiIn, long offIn, long pathOut, long fiOut, long offOut, long size, int flags) {
        String p = null;
        try {
            ThreadState t = ThreadState.get();
            p = t.path(pathIn);
            return fs.copyFileRange(p, t.fileInfo.at(fiIn), offIn, t.path(pathOut), t.fileInfoOut.at(fiOut), offOut, size, flags);
        } catch (Throwable e) {
            return fail("copy_file_range", p, e);
        }
    }

    long lseek(long path, long offset, int whence, long fi) {
        String p = null;
        try {
            ThreadState t = ThreadState.get();
            p = t.path(path);
            return fs.lseek(p, offset, whence, t.fileInfo.at(fi));
        } catch (Throwable e) {
            return fail("lseek", p, e);
        }
    }
}
