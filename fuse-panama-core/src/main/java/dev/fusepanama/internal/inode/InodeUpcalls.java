package dev.fusepanama.internal.inode;

import dev.fusepanama.Errno;
import dev.fusepanama.inode.InodeFileSystem;
import dev.fusepanama.inode.InodeMount;
import dev.fusepanama.inode.LookupCounter;
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
 * <p>No request goes unanswered and nothing escapes into native code: each method hands its
 * reply to {@link #finished} when the filesystem's method returns (a reply left open, neither
 * answered nor deferred, is answered EIO and logged) or to {@link #failed} when it throws
 * (answered with the exception's errno, {@link ErrorMapper}, unless it already answered);
 * {@link #stub} catches what fails before the reply exists.
 */
public final class InodeUpcalls {

    /**
     * The inode API's operations: {@code struct fuse_lowlevel_ops}, these methods,
     * {@link InodeFileSystem}. {@code forget_multi} serves the kernel's batches with the author's
     * {@code forget}, {@code readdirplus} with the author's {@code readdir}; {@code retrieve_reply},
     * the library's own, completes the future of {@link InodeMount#retrieve}. Derived from the newest struct (3.18's); a mount registers only
     * the slots of the release it loaded.
     */
    public static final Operation.Table OPERATIONS = Operation.Table.derive(fuse_lowlevel_ops.LAYOUT_318, InodeUpcalls.class,
            InodeFileSystem.class, Map.of("forget_multi", "forget", "readdirplus", "readdir"), Set.of("retrieve_reply"), Set.of("init"));

    /** Whether {@code op} answers through a reply (all but init, destroy, the forgets and the library's own). */
    static boolean answersThroughReply(Operation op) {
        String name = op.cName();
        return op.authorMethod() != null && !name.equals("init") && !name.equals("destroy") && !name.startsWith("forget");
    }

    private static final MethodHandles.Lookup LOOKUP = MethodHandles.lookup();
    private static final MethodHandle UNANSWERABLE = method("unanswerable",
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
     * The upcall stub for {@code op}, valid as long as {@code arena}; nothing it calls can throw
     * into native code. A method that answers through a reply catches what the filesystem throws
     * itself ({@link #finished}, {@link #failed}, with the reply as argument); what the stub
     * catches came before the reply existed, which only the request can answer.
     */
    public MemorySegment stub(Operation op, Arena arena) {
        if (answersThroughReply(op)) {
            return op.stub(LOOKUP, this, null, MethodHandles.insertArguments(UNANSWERABLE, 0, this, op.cName()), arena);
        }
        return op.stub(LOOKUP, this, null, MethodHandles.insertArguments(FAILED_QUIETLY, 0, this, op.cName()), arena);
    }

    /** After the filesystem's method returned: a reply left open is a bug in the filesystem; answer EIO so the caller does not hang. */
    private void finished(String op, NativeReply r) {
        InodeThread.get().served();
        if (r.isOpen() && r.failIfOpen(NativeReply.UNANSWERED)) {
            try {
                errors.unanswered(op, () -> "request");
            } catch (Throwable logging) {
                // answered already; nothing may reach native code
            }
        }
    }

    /**
     * The filesystem's method threw: answer {@code r} with the errno unless the method already
     * answered it (or deferred it: then the answer is its own). The answer goes first, the log
     * line after, so a failure to log cannot leave the caller waiting.
     */
    private void failed(String op, Throwable thrown, NativeReply r, long ino) {
        fail(op, thrown, r, () -> "of inode " + ino);
    }

    /** As {@link #failed} for a request whose first argument is not an inode ({@code symlink}: its target comes first). */
    private void failedRequest(String op, Throwable thrown, NativeReply r) {
        fail(op, thrown, r, () -> "request");
    }

    private void fail(String op, Throwable thrown, NativeReply r, Supplier<String> what) {
        try {
            InodeThread.get().served();
            r.failIfOpen(ErrorMapper.errnoOf(thrown));
        } catch (Throwable t) {
            // nothing may reach native code
        }
        try {
            errors.fail(op, what, thrown);
        } catch (Throwable logging) {
            // as above
        }
    }

    /** Something failed before the request's reply existed (its memory, this thread's state): the request is answered bare. */
    private void unanswerable(String op, Throwable thrown, long req) {
        try {
            InodeThread.get().served();
            int rc = (int) ll.replyErr.invokeExact(req, ErrorMapper.errnoOf(thrown));
        } catch (Throwable t) {
            // nothing may reach native code
        }
        try {
            errors.fail(op, () -> "request", thrown);
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
        try {
            fs.destroy();
        } finally {
            if (replies.counter != null) {
                replies.counter.sessionEnded();
            }
        }
    }

    /**
     * A lookup whose entry named a node dropped before the library could count it is asked
     * again (a few times), with a fresh reply: the name may well lead to a file still, now by a
     * new node.
     */
    void lookup(long req, long parent, long name) {
        InodeThread t = InodeThread.get();
        for (int attempt = 1; ; attempt++) {
            var r = t.serve(new TypedReplies.Lookup(replies, req, t.area(), attempt < TypedReplies.Lookup.ATTEMPTS));
            try {
                fs.lookup(t.request.at(req, scope), parent, t.name.at(name), r);
                if (r.askAgain()) {
                    continue;
                }
                finished("lookup", r);
            } catch (Throwable thrown) {
                if (r.askAgain()) {
                    continue; // it threw after its entry was withdrawn: the fresh reply is the answer
                }
                failed("lookup", thrown, r, parent);
            }
            return;
        }
    }

    void forget(long req, long ino, long lookups) throws Throwable {
        try {
            forgetOne(ino, lookups);
        } finally {
            ll.replyNone.invokeExact(req);
        }
    }

    /** To the library's counter if the filesystem has one, else to the filesystem. */
    private void forgetOne(long ino, long lookups) {
        LookupCounter counter = replies.counter;
        if (counter != null) {
            counter.forget(ino, lookups);
        } else {
            fs.forget(ino, lookups);
        }
    }

    void getattr(long req, long ino, long fi) {
        InodeThread t = InodeThread.get();
        var r = t.serve(new TypedReplies.Attr(replies, req, t.area()));
        try {
            fs.getattr(t.request.at(req, scope), ino, fh(fi), r);
            finished("getattr", r);
        } catch (Throwable thrown) {
            failed("getattr", thrown, r, ino);
        }
    }

    void setattr(long req, long ino, long attr, int toSet, long fi) {
        InodeThread t = InodeThread.get();
        var r = t.serve(new TypedReplies.Attr(replies, req, t.area()));
        try {
            fs.setattr(t.request.at(req, scope), ino, t.attributes.at(attr), toSet, fh(fi), r);
            finished("setattr", r);
        } catch (Throwable thrown) {
            failed("setattr", thrown, r, ino);
        }
    }

    void readlink(long req, long ino) {
        InodeThread t = InodeThread.get();
        var r = t.serve(new TypedReplies.Readlink(replies, req, t.area()));
        try {
            fs.readlink(t.request.at(req, scope), ino, r);
            finished("readlink", r);
        } catch (Throwable thrown) {
            failed("readlink", thrown, r, ino);
        }
    }

    void mknod(long req, long parent, long name, int mode, long rdev) {
        InodeThread t = InodeThread.get();
        var r = t.serve(new TypedReplies.Entry(replies, req, t.area()));
        try {
            fs.mknod(t.request.at(req, scope), parent, t.name.at(name), mode, rdev, r);
            finished("mknod", r);
        } catch (Throwable thrown) {
            failed("mknod", thrown, r, parent);
        }
    }

    void mkdir(long req, long parent, long name, int mode) {
        InodeThread t = InodeThread.get();
        var r = t.serve(new TypedReplies.Entry(replies, req, t.area()));
        try {
            fs.mkdir(t.request.at(req, scope), parent, t.name.at(name), mode, r);
            finished("mkdir", r);
        } catch (Throwable thrown) {
            failed("mkdir", thrown, r, parent);
        }
    }

    void unlink(long req, long parent, long name) {
        InodeThread t = InodeThread.get();
        var r = t.serve(new TypedReplies.Empty(replies, req, t.area()));
        try {
            fs.unlink(t.request.at(req, scope), parent, t.name.at(name), r);
            finished("unlink", r);
        } catch (Throwable thrown) {
            failed("unlink", thrown, r, parent);
        }
    }

    void rmdir(long req, long parent, long name) {
        InodeThread t = InodeThread.get();
        var r = t.serve(new TypedReplies.Empty(replies, req, t.area()));
        try {
            fs.rmdir(t.request.at(req, scope), parent, t.name.at(name), r);
            finished("rmdir", r);
        } catch (Throwable thrown) {
            failed("rmdir", thrown, r, parent);
        }
    }

    void symlink(long req, long target, long parent, long name) {
        InodeThread t = InodeThread.get();
        var r = t.serve(new TypedReplies.Entry(replies, req, t.area()));
        try {
            byte[] link = t.newName.at(target).bytes();
            fs.symlink(t.request.at(req, scope), parent, t.name.at(name), link, r);
            finished("symlink", r);
        } catch (Throwable thrown) {
            failedRequest("symlink", thrown, r);
        }
    }

    void rename(long req, long parent, long name, long newParent, long newName, int flags) {
        InodeThread t = InodeThread.get();
        var r = t.serve(new TypedReplies.Empty(replies, req, t.area()));
        try {
            fs.rename(t.request.at(req, scope), parent, t.name.at(name), newParent, t.newName.at(newName), flags, r);
            finished("rename", r);
        } catch (Throwable thrown) {
            failed("rename", thrown, r, parent);
        }
    }

    void link(long req, long ino, long newParent, long newName) {
        InodeThread t = InodeThread.get();
        var r = t.serve(new TypedReplies.Entry(replies, req, t.area()));
        try {
            fs.link(t.request.at(req, scope), ino, newParent, t.newName.at(newName), r);
            finished("link", r);
        } catch (Throwable thrown) {
            failed("link", thrown, r, ino);
        }
    }

    void open(long req, long ino, long fi) {
        InodeThread t = InodeThread.get();
        var r = t.serve(new TypedReplies.Open(replies, req, t.area(), ino));
        try {
            fs.open(t.request.at(req, scope), ino, fuse_file_info.flags(fi), r);
            finished("open", r);
        } catch (Throwable thrown) {
            failed("open", thrown, r, ino);
        }
    }

    void read(long req, long ino, long size, long offset, long fi) {
        InodeThread t = InodeThread.get();
        var r = t.serve(new TypedReplies.Data(replies, req, t.area()));
        try {
            fs.read(t.request.at(req, scope), ino, fh(fi), size, offset, r);
            finished("read", r);
        } catch (Throwable thrown) {
            failed("read", thrown, r, ino);
        }
    }

    void write(long req, long ino, long buf, long size, long offset, long fi) {
        InodeThread t = InodeThread.get();
        var r = t.serve(new TypedReplies.Write(replies, req, t.area()));
        try {
            boolean cached = fi != 0 && fuse_file_info.bit(fi, replies.fileInfoBits.writepage());
            fs.write(t.request.atWrite(req, scope, cached), ino, fh(fi), t.writeData(buf, size), offset, r);
            finished("write", r);
        } catch (Throwable thrown) {
            failed("write", thrown, r, ino);
        }
    }

    void flush(long req, long ino, long fi) {
        InodeThread t = InodeThread.get();
        var r = t.serve(new TypedReplies.Empty(replies, req, t.area()));
        try {
            fs.flush(t.request.at(req, scope), ino, fh(fi), fuse_file_info.lock_owner(fi), r);
            finished("flush", r);
        } catch (Throwable thrown) {
            failed("flush", thrown, r, ino);
        }
    }

    void release(long req, long ino, long fi) {
        InodeThread t = InodeThread.get();
        var r = t.serve(new TypedReplies.Empty(replies, req, t.area()));
        try {
            long fh = fh(fi);
            try {
                fs.release(t.request.at(req, scope), ino, fh, fuse_file_info.flags(fi), r);
            } finally {
                var backing = replies.backing;
                if (backing != null) {
                    backing.release(ino, fh);
                }
            }
            finished("release", r);
        } catch (Throwable thrown) {
            failed("release", thrown, r, ino);
        }
    }

    void fsync(long req, long ino, int dataOnly, long fi) {
        InodeThread t = InodeThread.get();
        var r = t.serve(new TypedReplies.Empty(replies, req, t.area()));
        try {
            fs.fsync(t.request.at(req, scope), ino, fh(fi), dataOnly != 0, r);
            finished("fsync", r);
        } catch (Throwable thrown) {
            failed("fsync", thrown, r, ino);
        }
    }

    void opendir(long req, long ino, long fi) {
        InodeThread t = InodeThread.get();
        var r = t.serve(new TypedReplies.Open(replies, req, t.area(), 0));
        try {
            switch (replies.opendir()) {
                case NOT_IMPLEMENTED -> r.error(Errno.ENOSYS);
                case KEEP_LISTING -> r.open(0, OpenReply.CACHE_DIR | OpenReply.KEEP_CACHE);
                case FILESYSTEM -> fs.opendir(t.request.at(req, scope), ino, fuse_file_info.flags(fi), r);
            }
            finished("opendir", r);
        } catch (Throwable thrown) {
            failed("opendir", thrown, r, ino);
        }
    }

    void readdir(long req, long ino, long size, long offset, long fi) {
        InodeThread t = InodeThread.get();
        int limit = InodeThread.batchLimit(size);
        var r = t.serve(new DirReplies.Dir(replies, req, t.area(), t.dir(limit), limit));
        try {
            fs.readdir(t.request.at(req, scope), ino, fh(fi), size, offset, r);
            finished("readdir", r);
        } catch (Throwable thrown) {
            failed("readdir", thrown, r, ino);
        }
    }

    void releasedir(long req, long ino, long fi) {
        InodeThread t = InodeThread.get();
        var r = t.serve(new TypedReplies.Empty(replies, req, t.area()));
        try {
            fs.releasedir(t.request.at(req, scope), ino, fh(fi), r);
            finished("releasedir", r);
        } catch (Throwable thrown) {
            failed("releasedir", thrown, r, ino);
        }
    }

    void fsyncdir(long req, long ino, int dataOnly, long fi) {
        InodeThread t = InodeThread.get();
        var r = t.serve(new TypedReplies.Empty(replies, req, t.area()));
        try {
            fs.fsyncdir(t.request.at(req, scope), ino, fh(fi), dataOnly != 0, r);
            finished("fsyncdir", r);
        } catch (Throwable thrown) {
            failed("fsyncdir", thrown, r, ino);
        }
    }

    void statfs(long req, long ino) {
        InodeThread t = InodeThread.get();
        var r = t.serve(new TypedReplies.Statfs(replies, req, t.area()));
        try {
            fs.statfs(t.request.at(req, scope), ino, r);
            finished("statfs", r);
        } catch (Throwable thrown) {
            failed("statfs", thrown, r, ino);
        }
    }

    void setxattr(long req, long ino, long name, long value, long size, int flags) {
        InodeThread t = InodeThread.get();
        var r = t.serve(new TypedReplies.Empty(replies, req, t.area()));
        try {
            fs.setxattr(t.request.at(req, scope), ino, t.name.at(name), t.writeData(value, size), flags, r);
            finished("setxattr", r);
        } catch (Throwable thrown) {
            failed("setxattr", thrown, r, ino);
        }
    }

    void getxattr(long req, long ino, long name, long size) {
        InodeThread t = InodeThread.get();
        var r = t.serve(new TypedReplies.Xattr(replies, req, t.area()));
        try {
            fs.getxattr(t.request.at(req, scope), ino, t.name.at(name), size, r);
            finished("getxattr", r);
        } catch (Throwable thrown) {
            failed("getxattr", thrown, r, ino);
        }
    }

    void listxattr(long req, long ino, long size) {
        InodeThread t = InodeThread.get();
        var r = t.serve(new TypedReplies.Xattr(replies, req, t.area()));
        try {
            fs.listxattr(t.request.at(req, scope), ino, size, r);
            finished("listxattr", r);
        } catch (Throwable thrown) {
            failed("listxattr", thrown, r, ino);
        }
    }

    void removexattr(long req, long ino, long name) {
        InodeThread t = InodeThread.get();
        var r = t.serve(new TypedReplies.Empty(replies, req, t.area()));
        try {
            fs.removexattr(t.request.at(req, scope), ino, t.name.at(name), r);
            finished("removexattr", r);
        } catch (Throwable thrown) {
            failed("removexattr", thrown, r, ino);
        }
    }

    void access(long req, long ino, int mask) {
        InodeThread t = InodeThread.get();
        var r = t.serve(new TypedReplies.Empty(replies, req, t.area()));
        try {
            fs.access(t.request.at(req, scope), ino, mask, r);
            finished("access", r);
        } catch (Throwable thrown) {
            failed("access", thrown, r, ino);
        }
    }

    void create(long req, long parent, long name, int mode, long fi) {
        InodeThread t = InodeThread.get();
        var r = t.serve(new TypedReplies.Create(replies, req, t.area()));
        try {
            fs.create(t.request.at(req, scope), parent, t.name.at(name), mode, fuse_file_info.flags(fi), r);
            finished("create", r);
        } catch (Throwable thrown) {
            failed("create", thrown, r, parent);
        }
    }

    void getlk(long req, long ino, long fi, long lock) {
        InodeThread t = InodeThread.get();
        var r = t.serve(new TypedReplies.Lock(replies, req, t.area()));
        try {
            fs.getlk(t.request.at(req, scope), ino, fh(fi), fuse_file_info.lock_owner(fi), t.flock.at(lock), r);
            finished("getlk", r);
        } catch (Throwable thrown) {
            failed("getlk", thrown, r, ino);
        }
    }

    void setlk(long req, long ino, long fi, long lock, int sleep) {
        InodeThread t = InodeThread.get();
        var r = t.serve(new TypedReplies.Empty(replies, req, t.area()));
        try {
            fs.setlk(t.request.at(req, scope), ino, fh(fi), fuse_file_info.lock_owner(fi), t.flock.at(lock), sleep != 0, r);
            finished("setlk", r);
        } catch (Throwable thrown) {
            failed("setlk", thrown, r, ino);
        }
    }

    void bmap(long req, long ino, long blockSize, long index) {
        InodeThread t = InodeThread.get();
        var r = t.serve(new TypedReplies.Bmap(replies, req, t.area()));
        try {
            fs.bmap(t.request.at(req, scope), ino, blockSize, index, r);
            finished("bmap", r);
        } catch (Throwable thrown) {
            failed("bmap", thrown, r, ino);
        }
    }

    void ioctl(long req, long ino, int cmd, long arg, long fi, int flags, long in, long inSize, long outSize) {
        InodeThread t = InodeThread.get();
        var r = t.serve(new TypedReplies.Ioctl(replies, req, t.area(), (int) outSize));
        try {
            fs.ioctl(t.request.at(req, scope), ino, fh(fi), cmd, arg, flags, t.writeData(in, inSize), (int) outSize, r);
            finished("ioctl", r);
        } catch (Throwable thrown) {
            failed("ioctl", thrown, r, ino);
        }
    }

    void poll(long req, long ino, long fi, long ph) {
        InodeThread t = InodeThread.get();
        var r = t.serve(new TypedReplies.Poll(replies, req, t.area()));
        try {
            try {
                fs.poll(t.request.at(req, scope), ino, fh(fi), fuse_file_info.poll_events(fi), t.pollHandle.at(ph, guard), r);
            } finally {
                t.pollHandle.afterPoll(); // the handle is the filesystem's to free, unless it retained it
            }
            finished("poll", r);
        } catch (Throwable thrown) {
            failed("poll", thrown, r, ino);
        }
    }

    void write_buf(long req, long ino, long bufv, long offset, long fi) {
        InodeThread t = InodeThread.get();
        var r = t.serve(new TypedReplies.Write(replies, req, t.area()));
        try {
            boolean cached = fi != 0 && fuse_file_info.bit(fi, replies.fileInfoBits.writepage());
            fs.writeBuf(t.request.atWrite(req, scope, cached), ino, fh(fi), t.writeBuffer(bufv), offset, r);
            finished("write_buf", r);
        } catch (Throwable thrown) {
            failed("write_buf", thrown, r, ino);
        }
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
                    forgetOne(fuse_forget_data.ino(f), fuse_forget_data.nlookup(f));
                } catch (Throwable t) {
                    failedQuietly("forget", t);
                }
            }
        } finally {
            ll.replyNone.invokeExact(req);
        }
    }

    void flock(long req, long ino, long fi, int operation) {
        InodeThread t = InodeThread.get();
        var r = t.serve(new TypedReplies.Empty(replies, req, t.area()));
        try {
            fs.flock(t.request.at(req, scope), ino, fh(fi), operation, r);
            finished("flock", r);
        } catch (Throwable thrown) {
            failed("flock", thrown, r, ino);
        }
    }

    void fallocate(long req, long ino, int mode, long offset, long length, long fi) {
        InodeThread t = InodeThread.get();
        var r = t.serve(new TypedReplies.Empty(replies, req, t.area()));
        try {
            fs.fallocate(t.request.at(req, scope), ino, fh(fi), mode, offset, length, r);
            finished("fallocate", r);
        } catch (Throwable thrown) {
            failed("fallocate", thrown, r, ino);
        }
    }

    void readdirplus(long req, long ino, long size, long offset, long fi) {
        InodeThread t = InodeThread.get();
        int limit = InodeThread.batchLimit(size);
        var r = t.serve(new DirReplies.DirPlus(replies, req, t.area(), t.dir(limit), limit));
        try {
            fs.readdir(t.request.at(req, scope), ino, fh(fi), size, offset, r); // one listing serves both
            finished("readdirplus", r);
        } catch (Throwable thrown) {
            failed("readdirplus", thrown, r, ino);
        }
    }

    void copy_file_range(long req, long inoIn, long offsetIn, long fiIn, long inoOut, long offsetOut, long fiOut,
            long length, int flags) {
        InodeThread t = InodeThread.get();
        var r = t.serve(new TypedReplies.Write(replies, req, t.area()));
        try {
            fs.copyFileRange(t.request.at(req, scope), inoIn, fh(fiIn), offsetIn, inoOut, fh(fiOut), offsetOut, length, flags, r);
            finished("copy_file_range", r);
        } catch (Throwable thrown) {
            failed("copy_file_range", thrown, r, inoIn);
        }
    }

    void tmpfile(long req, long parent, int mode, long fi) {
        InodeThread t = InodeThread.get();
        var r = t.serve(new TypedReplies.Create(replies, req, t.area()));
        try {
            fs.tmpfile(t.request.at(req, scope), parent, mode, fuse_file_info.flags(fi), r);
            finished("tmpfile", r);
        } catch (Throwable thrown) {
            failed("tmpfile", thrown, r, parent);
        }
    }

    void statx(long req, long ino, int flags, int mask, long fi) {
        InodeThread t = InodeThread.get();
        var r = t.serve(new TypedReplies.Statx(replies, req, t.area()));
        try {
            fs.statx(t.request.at(req, scope), ino, fh(fi), flags, mask, r);
            finished("statx", r);
        } catch (Throwable thrown) {
            failed("statx", thrown, r, ino);
        }
    }

    void lseek(long req, long ino, long offset, int whence, long fi) {
        InodeThread t = InodeThread.get();
        var r = t.serve(new TypedReplies.Lseek(replies, req, t.area()));
        try {
            fs.lseek(t.request.at(req, scope), ino, fh(fi), offset, whence, r);
            finished("lseek", r);
        } catch (Throwable thrown) {
            failed("lseek", thrown, r, ino);
        }
    }
}
