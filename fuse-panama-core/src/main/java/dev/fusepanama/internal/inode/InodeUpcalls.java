package dev.fusepanama.internal.inode;

import dev.fusepanama.Errno;
import dev.fusepanama.inode.InodeFileSystem;
import dev.fusepanama.inode.InodeMount;
import dev.fusepanama.inode.OpenReply;
import dev.fusepanama.internal.bind.Cancellation;
import dev.fusepanama.internal.bind.LibFuse;
import dev.fusepanama.internal.bind.LibFuseLowLevel;
import dev.fusepanama.internal.bind.fuse_file_info;
import dev.fusepanama.internal.bind.fuse_forget_data;
import dev.fusepanama.internal.bind.fuse_lowlevel_ops;
import dev.fusepanama.internal.dispatch.ErrorMapper;
import dev.fusepanama.internal.dispatch.InitListener;
import dev.fusepanama.internal.dispatch.Operation;
import dev.fusepanama.internal.view.NativeConnectionInfo;
import dev.fusepanama.internal.view.NativePollHandle;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * How a low-level request reaches an {@link InodeFileSystem}: libfuse calls one of these methods
 * through an upcall stub; the method creates the request's reply, points this thread's views at
 * the request's names and structs and calls the filesystem. Each package-private method is one
 * operation, named like its {@code struct fuse_lowlevel_ops} slot, with the C signature in Java
 * types ({@link Operation} derives the rest, as for the path API).
 *
 * <p>{@link #stub} wraps each method so that nothing escapes into native code and no request
 * goes unanswered: a method that returns leaving its reply open (neither answered nor deferred)
 * is answered EIO and logged; one that throws is answered with the exception's errno
 * ({@link ErrorMapper}), unless it already answered.
 */
public final class InodeUpcalls {

    /**
     * The inode API's operations: {@code struct fuse_lowlevel_ops}, these methods,
     * {@link InodeFileSystem}. {@code forget_multi} serves the kernel's batches with the author's
     * {@code forget}; {@code retrieve_reply}, the library's own, completes the future of
     * {@link InodeMount#retrieve}. Derived from the newest struct (3.18's); a mount registers only
     * the slots of the release it loaded.
     */
    public static final Operation.Table OPERATIONS = Operation.Table.derive(fuse_lowlevel_ops.LAYOUT_318, InodeUpcalls.class,
            InodeFileSystem.class, Map.of("forget_multi", "forget"), Set.of("retrieve_reply"), Set.of("init"));

    /** Whether {@code op} answers through a reply (all but init, destroy, the forgets and the library's own). */
    static boolean answersThroughReply(Operation op) {
        String name = op.cName();
        return op.authorMethod() != null && !name.equals("init") && !name.equals("destroy") && !name.startsWith("forget");
    }

    private static final MethodHandles.Lookup LOOKUP = MethodHandles.lookup();
    private static final MethodHandle FINISHED = method("finished", MethodType.methodType(void.class, String.class));
    private static final MethodHandle FAILED = method("failed",
            MethodType.methodType(void.class, String.class, Throwable.class, long.class, long.class));
    private static final MethodHandle FAILED_REQUEST = method("failedRequest",
            MethodType.methodType(void.class, String.class, Throwable.class, long.class));
    private static final MethodHandle FAILED_QUIETLY = method("failedQuietly",
            MethodType.methodType(void.class, String.class, Throwable.class));

    private static MethodHandle method(String name, MethodType type) {
        try {
            return LOOKUP.findVirtual(InodeUpcalls.class, name, type);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final InodeFileSystem fs;
    private final Replies replies;
    private final ErrorMapper errors;
    private final InitListener initListener;
    private final RequestScope scope;
    private final LibFuseLowLevel ll;
    private final boolean extendedFlags;
    private final NativePollHandle.Guard guard;

    public InodeUpcalls(InodeFileSystem fs, Replies replies, ErrorMapper errors, InitListener initListener,
            NativePollHandle.Guard guard, RequestScope scope) {
        this.scope = scope;
        this.fs = fs;
        this.replies = replies;
        this.errors = errors;
        this.initListener = initListener;
        LibFuse lib = LibFuse.get();
        this.ll = lib.lowLevel;
        this.extendedFlags = lib.version.wantExt();
        this.guard = guard;
    }

    /**
     * The requests whose first argument after the request is not an inode: libfuse's symlink
     * passes the link's target before the parent (fuse_lowlevel.h), the only one that does.
     */
    private static final Set<String> NOT_OF_AN_INODE = Set.of("symlink");

    /** The upcall stub for {@code op}, valid as long as {@code arena}; nothing it calls can throw into native code. */
    public MemorySegment stub(Operation op, Arena arena) {
        if (answersThroughReply(op)) {
            MethodHandle failed = NOT_OF_AN_INODE.contains(op.cName()) ? FAILED_REQUEST : FAILED;
            return op.stub(LOOKUP, this, MethodHandles.insertArguments(FINISHED, 0, this, op.cName()),
                    MethodHandles.insertArguments(failed, 0, this, op.cName()), arena);
        }
        return op.stub(LOOKUP, this, null, MethodHandles.insertArguments(FAILED_QUIETLY, 0, this, op.cName()), arena);
    }

    /** After a method returned: a reply left open is a bug in the filesystem; answer EIO so the caller does not hang. */
    private void finished(String op) {
        InodeThread t = InodeThread.get();
        NativeReply r = t.current;
        t.current = null;
        if (r != null && r.isOpen() && r.failIfOpen(NativeReply.UNANSWERED)) {
            try {
                errors.unanswered(op, () -> "request");
            } catch (Throwable logging) {
                // answered already; nothing may reach native code
            }
        }
    }

    /**
     * A method threw: answer with its errno unless it already answered (or deferred: then the
     * answer is its own). The answer goes first, the log line after, so a failure to log cannot
     * leave the caller waiting.
     */
    private void failed(String op, Throwable thrown, long req, long ino) {
        fail(op, thrown, req, () -> "of inode " + ino);
    }

    /** As {@link #failed} for a request whose first argument is not an inode ({@link #NOT_OF_AN_INODE}). */
    private void failedRequest(String op, Throwable thrown, long req) {
        fail(op, thrown, req, () -> "request");
    }

    private void fail(String op, Throwable thrown, long req, Supplier<String> what) {
        try {
            InodeThread t = InodeThread.get();
            NativeReply r = t.current;
            t.current = null;
            int errno = ErrorMapper.errnoOf(thrown);
            if (r == null || r.req != req) {
                int rc = (int) ll.replyErr.invokeExact(req, errno); // thrown before its reply existed
            } else {
                r.failIfOpen(errno);
            }
        } catch (Throwable t) {
            // nothing may reach native code
        }
        try {
            errors.fail(op, what, thrown);
        } catch (Throwable logging) {
            // as above
        }
    }

    private void failedQuietly(String op, Throwable thrown) {
        try {
            errors.fail(op, () -> "request", thrown);
        } catch (Throwable t) {
            // as above
        }
    }

    private static long fh(long fi) {
        return fi == 0 ? InodeFileSystem.NO_HANDLE : fuse_file_info.fh(fi);
    }

    // ---- the operations, in struct order ----------------------------------------------------------

    void init(long userdata, long conn) {
        InitListener.run(initListener, new NativeConnectionInfo(conn, extendedFlags), null,
                (connection, none) -> fs.init(connection)); // the interface's default does nothing
    }

    void destroy(long userdata) throws IOException {
        fs.destroy();
    }

    void lookup(long req, long parent, long name) throws IOException {
        InodeThread t = InodeThread.get();
        var r = t.serve(new TypedReplies.Lookup(replies, req, t.area()));
        fs.lookup(t.request.at(req, scope), parent, t.name.at(name), r);
    }

    void forget(long req, long ino, long lookups) throws Throwable {
        try {
            fs.forget(ino, lookups);
        } finally {
            ll.replyNone.invokeExact(req);
        }
    }

    void getattr(long req, long ino, long fi) throws IOException {
        InodeThread t = InodeThread.get();
        var r = t.serve(new TypedReplies.Attr(replies, req, t.area()));
        fs.getattr(t.request.at(req, scope), ino, fh(fi), r);
    }

    void setattr(long req, long ino, long attr, int toSet, long fi) throws IOException {
        InodeThread t = InodeThread.get();
        var r = t.serve(new TypedReplies.Attr(replies, req, t.area()));
        fs.setattr(t.request.at(req, scope), ino, t.attributes.at(attr), toSet, fh(fi), r);
    }

    void readlink(long req, long ino) throws IOException {
        InodeThread t = InodeThread.get();
        var r = t.serve(new TypedReplies.Readlink(replies, req, t.area()));
        fs.readlink(t.request.at(req, scope), ino, r);
    }

    void mknod(long req, long parent, long name, int mode, long rdev) throws IOException {
        InodeThread t = InodeThread.get();
        var r = t.serve(new TypedReplies.Entry(replies, req, t.area()));
        fs.mknod(t.request.at(req, scope), parent, t.name.at(name), mode, rdev, r);
    }

    void mkdir(long req, long parent, long name, int mode) throws IOException {
        InodeThread t = InodeThread.get();
        var r = t.serve(new TypedReplies.Entry(replies, req, t.area()));
        fs.mkdir(t.request.at(req, scope), parent, t.name.at(name), mode, r);
    }

    void unlink(long req, long parent, long name) throws IOException {
        InodeThread t = InodeThread.get();
        var r = t.serve(new TypedReplies.Empty(replies, req, t.area()));
        fs.unlink(t.request.at(req, scope), parent, t.name.at(name), r);
    }

    void rmdir(long req, long parent, long name) throws IOException {
        InodeThread t = InodeThread.get();
        var r = t.serve(new TypedReplies.Empty(replies, req, t.area()));
        fs.rmdir(t.request.at(req, scope), parent, t.name.at(name), r);
    }

    void symlink(long req, long target, long parent, long name) throws IOException {
        InodeThread t = InodeThread.get();
        var r = t.serve(new TypedReplies.Entry(replies, req, t.area()));
        byte[] link = t.newName.at(target).bytes();
        fs.symlink(t.request.at(req, scope), parent, t.name.at(name), link, r);
    }

    void rename(long req, long parent, long name, long newParent, long newName, int flags) throws IOException {
        InodeThread t = InodeThread.get();
        var r = t.serve(new TypedReplies.Empty(replies, req, t.area()));
        fs.rename(t.request.at(req, scope), parent, t.name.at(name), newParent, t.newName.at(newName), flags, r);
    }

    void link(long req, long ino, long newParent, long newName) throws IOException {
        InodeThread t = InodeThread.get();
        var r = t.serve(new TypedReplies.Entry(replies, req, t.area()));
        fs.link(t.request.at(req, scope), ino, newParent, t.newName.at(newName), r);
    }

    void open(long req, long ino, long fi) throws IOException {
        InodeThread t = InodeThread.get();
        var r = t.serve(new TypedReplies.Open(replies, req, t.area(), ino));
        fs.open(t.request.at(req, scope), ino, fuse_file_info.flags(fi), r);
    }

    void read(long req, long ino, long size, long offset, long fi) throws IOException {
        InodeThread t = InodeThread.get();
        var r = t.serve(new TypedReplies.Data(replies, req, t.area()));
        fs.read(t.request.at(req, scope), ino, fh(fi), size, offset, r);
    }

    void write(long req, long ino, long buf, long size, long offset, long fi) throws IOException {
        InodeThread t = InodeThread.get();
        var r = t.serve(new TypedReplies.Write(replies, req, t.area()));
        boolean cached = fi != 0 && fuse_file_info.bit(fi, replies.fileInfoBits.writepage());
        fs.write(t.request.atWrite(req, scope, cached), ino, fh(fi), t.writeData(buf, size), offset, r);
    }

    void flush(long req, long ino, long fi) throws IOException {
        InodeThread t = InodeThread.get();
        var r = t.serve(new TypedReplies.Empty(replies, req, t.area()));
        fs.flush(t.request.at(req, scope), ino, fh(fi), fuse_file_info.lock_owner(fi), r);
    }

    void release(long req, long ino, long fi) throws IOException {
        InodeThread t = InodeThread.get();
        var r = t.serve(new TypedReplies.Empty(replies, req, t.area()));
        long fh = fh(fi);
        try {
            fs.release(t.request.at(req, scope), ino, fh, fuse_file_info.flags(fi), r);
        } finally {
            var backing = replies.backing;
            if (backing != null) {
                backing.release(ino, fh);
            }
        }
    }

    void fsync(long req, long ino, int dataOnly, long fi) throws IOException {
        InodeThread t = InodeThread.get();
        var r = t.serve(new TypedReplies.Empty(replies, req, t.area()));
        fs.fsync(t.request.at(req, scope), ino, fh(fi), dataOnly != 0, r);
    }

    void opendir(long req, long ino, long fi) throws IOException {
        InodeThread t = InodeThread.get();
        var r = t.serve(new TypedReplies.Open(replies, req, t.area(), 0));
        switch (replies.opendir) {
            case NOT_IMPLEMENTED -> r.error(Errno.ENOSYS);
            case KEEP_LISTING -> r.open(0, OpenReply.CACHE_DIR | OpenReply.KEEP_CACHE);
            case FILESYSTEM -> fs.opendir(t.request.at(req, scope), ino, fuse_file_info.flags(fi), r);
        }
    }

    void readdir(long req, long ino, long size, long offset, long fi) throws IOException {
        InodeThread t = InodeThread.get();
        int limit = InodeThread.batchLimit(size);
        var r = t.serve(new TypedReplies.Dir(replies, req, t.area(), t.dir(limit), limit));
        fs.readdir(t.request.at(req, scope), ino, fh(fi), size, offset, r);
    }

    void releasedir(long req, long ino, long fi) throws IOException {
        InodeThread t = InodeThread.get();
        var r = t.serve(new TypedReplies.Empty(replies, req, t.area()));
        fs.releasedir(t.request.at(req, scope), ino, fh(fi), r);
    }

    void fsyncdir(long req, long ino, int dataOnly, long fi) throws IOException {
        InodeThread t = InodeThread.get();
        var r = t.serve(new TypedReplies.Empty(replies, req, t.area()));
        fs.fsyncdir(t.request.at(req, scope), ino, fh(fi), dataOnly != 0, r);
    }

    void statfs(long req, long ino) throws IOException {
        InodeThread t = InodeThread.get();
        var r = t.serve(new TypedReplies.Statfs(replies, req, t.area()));
        fs.statfs(t.request.at(req, scope), ino, r);
    }

    void setxattr(long req, long ino, long name, long value, long size, int flags) throws IOException {
        InodeThread t = InodeThread.get();
        var r = t.serve(new TypedReplies.Empty(replies, req, t.area()));
        fs.setxattr(t.request.at(req, scope), ino, t.name.at(name), t.writeData(value, size), flags, r);
    }

    void getxattr(long req, long ino, long name, long size) throws IOException {
        InodeThread t = InodeThread.get();
        var r = t.serve(new TypedReplies.Xattr(replies, req, t.area()));
        fs.getxattr(t.request.at(req, scope), ino, t.name.at(name), size, r);
    }

    void listxattr(long req, long ino, long size) throws IOException {
        InodeThread t = InodeThread.get();
        var r = t.serve(new TypedReplies.Xattr(replies, req, t.area()));
        fs.listxattr(t.request.at(req, scope), ino, size, r);
    }

    void removexattr(long req, long ino, long name) throws IOException {
        InodeThread t = InodeThread.get();
        var r = t.serve(new TypedReplies.Empty(replies, req, t.area()));
        fs.removexattr(t.request.at(req, scope), ino, t.name.at(name), r);
    }

    void access(long req, long ino, int mask) throws IOException {
        InodeThread t = InodeThread.get();
        var r = t.serve(new TypedReplies.Empty(replies, req, t.area()));
        fs.access(t.request.at(req, scope), ino, mask, r);
    }

    void create(long req, long parent, long name, int mode, long fi) throws IOException {
        InodeThread t = InodeThread.get();
        var r = t.serve(new TypedReplies.Create(replies, req, t.area()));
        fs.create(t.request.at(req, scope), parent, t.name.at(name), mode, fuse_file_info.flags(fi), r);
    }

    void getlk(long req, long ino, long fi, long lock) throws IOException {
        InodeThread t = InodeThread.get();
        var r = t.serve(new TypedReplies.Lock(replies, req, t.area()));
        fs.getlk(t.request.at(req, scope), ino, fh(fi), fuse_file_info.lock_owner(fi), t.flock.at(lock), r);
    }

    void setlk(long req, long ino, long fi, long lock, int sleep) throws IOException {
        InodeThread t = InodeThread.get();
        var r = t.serve(new TypedReplies.Empty(replies, req, t.area()));
        fs.setlk(t.request.at(req, scope), ino, fh(fi), fuse_file_info.lock_owner(fi), t.flock.at(lock), sleep != 0, r);
    }

    void bmap(long req, long ino, long blockSize, long index) throws IOException {
        InodeThread t = InodeThread.get();
        var r = t.serve(new TypedReplies.Bmap(replies, req, t.area()));
        fs.bmap(t.request.at(req, scope), ino, blockSize, index, r);
    }

    void ioctl(long req, long ino, int cmd, long arg, long fi, int flags, long in, long inSize, long outSize)
            throws IOException {
        InodeThread t = InodeThread.get();
        var r = t.serve(new TypedReplies.Ioctl(replies, req, t.area(), (int) outSize));
        fs.ioctl(t.request.at(req, scope), ino, fh(fi), cmd, arg, flags, t.writeData(in, inSize), (int) outSize, r);
    }

    void poll(long req, long ino, long fi, long ph) throws IOException {
        InodeThread t = InodeThread.get();
        var r = t.serve(new TypedReplies.Poll(replies, req, t.area()));
        try {
            fs.poll(t.request.at(req, scope), ino, fh(fi), fuse_file_info.poll_events(fi), t.pollHandle.at(ph, guard), r);
        } finally {
            t.pollHandle.afterPoll(); // the handle is the filesystem's to free, unless it retained it
        }
    }

    void write_buf(long req, long ino, long bufv, long offset, long fi) throws IOException {
        InodeThread t = InodeThread.get();
        var r = t.serve(new TypedReplies.Write(replies, req, t.area()));
        boolean cached = fi != 0 && fuse_file_info.bit(fi, replies.fileInfoBits.writepage());
        fs.writeBuf(t.request.atWrite(req, scope, cached), ino, fh(fi), t.writeBuffer(bufv), offset, r);
    }

    /** The kernel's answer to {@link InodeMount#retrieve}: complete its future with a copy of the data. */
    void retrieve_reply(long req, long cookie, long ino, long offset, long bufv) throws Throwable {
        // Over io_uring this arrives on a queue thread like any request (Workers.adopt).
        Cancellation.disableForLife();
        try {
            CompletableFuture<byte[]> result = replies.retrieved(cookie);
            if (result != null) {
                var data = InodeThread.get().writeBuffer(bufv);
                byte[] bytes = new byte[(int) data.size()];
                data.copyTo(ByteBuffer.wrap(bytes));
                result.complete(bytes);
            }
        } finally {
            ll.replyNone.invokeExact(req);
        }
    }

    void forget_multi(long req, long count, long forgets) throws Throwable {
        try {
            long size = fuse_forget_data.LAYOUT.byteSize();
            for (long i = 0; i < count; i++) {
                long f = forgets + i * size;
                try {
                    fs.forget(fuse_forget_data.ino(f), fuse_forget_data.nlookup(f));
                } catch (Throwable t) {
                    failedQuietly("forget", t);
                }
            }
        } finally {
            ll.replyNone.invokeExact(req);
        }
    }

    void flock(long req, long ino, long fi, int operation) throws IOException {
        InodeThread t = InodeThread.get();
        var r = t.serve(new TypedReplies.Empty(replies, req, t.area()));
        fs.flock(t.request.at(req, scope), ino, fh(fi), operation, r);
    }

    void fallocate(long req, long ino, int mode, long offset, long length, long fi) throws IOException {
        InodeThread t = InodeThread.get();
        var r = t.serve(new TypedReplies.Empty(replies, req, t.area()));
        fs.fallocate(t.request.at(req, scope), ino, fh(fi), mode, offset, length, r);
    }

    void readdirplus(long req, long ino, long size, long offset, long fi) throws IOException {
        InodeThread t = InodeThread.get();
        int limit = InodeThread.batchLimit(size);
        var r = t.serve(new TypedReplies.DirPlus(replies, req, t.area(), t.dir(limit), limit));
        fs.readdirplus(t.request.at(req, scope), ino, fh(fi), size, offset, r);
    }

    void copy_file_range(long req, long inoIn, long offsetIn, long fiIn, long inoOut, long offsetOut, long fiOut,
            long length, int flags) throws IOException {
        InodeThread t = InodeThread.get();
        var r = t.serve(new TypedReplies.Write(replies, req, t.area()));
        fs.copyFileRange(t.request.at(req, scope), inoIn, fh(fiIn), offsetIn, inoOut, fh(fiOut), offsetOut, length, flags, r);
    }

    void tmpfile(long req, long parent, int mode, long fi) throws IOException {
        InodeThread t = InodeThread.get();
        var r = t.serve(new TypedReplies.Create(replies, req, t.area()));
        fs.tmpfile(t.request.at(req, scope), parent, mode, fuse_file_info.flags(fi), r);
    }

    void statx(long req, long ino, int flags, int mask, long fi) throws IOException {
        InodeThread t = InodeThread.get();
        var r = t.serve(new TypedReplies.Statx(replies, req, t.area()));
        fs.statx(t.request.at(req, scope), ino, fh(fi), flags, mask, r);
    }

    void lseek(long req, long ino, long offset, int whence, long fi) throws IOException {
        InodeThread t = InodeThread.get();
        var r = t.serve(new TypedReplies.Lseek(replies, req, t.area()));
        fs.lseek(t.request.at(req, scope), ino, fh(fi), offset, whence, r);
    }
}
