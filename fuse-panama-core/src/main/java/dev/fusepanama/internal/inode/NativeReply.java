package dev.fusepanama.internal.inode;

import dev.fusepanama.Flock;
import dev.fusepanama.StatVfs;
import dev.fusepanama.inode.AttrReply;
import dev.fusepanama.inode.BmapReply;
import dev.fusepanama.inode.CreateReply;
import dev.fusepanama.inode.DirPlusReply;
import dev.fusepanama.inode.DirReply;
import dev.fusepanama.inode.EmptyReply;
import dev.fusepanama.inode.EntryReply;
import dev.fusepanama.inode.IoctlReply;
import dev.fusepanama.inode.LockReply;
import dev.fusepanama.inode.LseekReply;
import dev.fusepanama.inode.OpenReply;
import dev.fusepanama.internal.passthrough.BackingFiles;
import dev.fusepanama.inode.PollReply;
import dev.fusepanama.inode.ReadlinkReply;
import dev.fusepanama.inode.Reply;
import dev.fusepanama.inode.StatfsReply;
import dev.fusepanama.inode.WriteReply;
import dev.fusepanama.inode.XattrReply;
import dev.fusepanama.internal.bind.Native;
import dev.fusepanama.internal.bind.flock;
import dev.fusepanama.internal.bind.fuse_entry_param;
import dev.fusepanama.internal.bind.fuse_file_info;
import dev.fusepanama.internal.bind.stat;
import dev.fusepanama.internal.view.NativeStatVfs;
import dev.fusepanama.internal.view.StatFields;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;

/**
 * The one reply object of a request, whatever its kind (the interfaces the filesystem sees
 * allow only its operation's answers). Its state moves once, by compare-and-set, from OPEN or
 * DEFERRED to SENT (answered) or DROPPED (the session ended first), so a request is answered
 * exactly once whichever threads race to answer it.
 *
 * <p>Structs the answer needs (entry, attributes, file info, statvfs, a name) are built in
 * {@link #area}: the receiving thread's scratch while the method runs, memory of the reply's own
 * once deferred (so another thread can finish it while the worker serves the next request).
 * Directory batches are built the same way in {@link #dir}.
 */
final class NativeReply implements EmptyReply, EntryReply, CreateReply, AttrReply, OpenReply, XattrReply, WriteReply,
        ReadlinkReply, StatfsReply, LockReply, LseekReply, DirReply, DirPlusReply, BmapReply, PollReply, IoctlReply,
        StatFields {

    /** Scratch layout: the entry (with its stat) first, then a file info, then a name. */
    static final long ENTRY = 0;
    static final long STAT = ENTRY + fuse_entry_param.ATTR;
    static final long FILE_INFO = 192;
    static final long NAME = 320;
    static final int NAME_CAPACITY = 4096;
    static final long AREA_SIZE = NAME + NAME_CAPACITY + 8;

    private static final int OPEN = 0;
    private static final int DEFERRED = 1;
    private static final int SENT = 2;
    private static final int DROPPED = 3;
    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(NativeReply.class, "state", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    final Replies replies;
    final long req;
    @SuppressWarnings("unused") // through STATE
    private volatile int state;
    private long area;
    private long dir;
    /** The most bytes the answer may carry: a directory batch's, or an ioctl's output. */
    private int dirLimit;
    private int dirUsed;
    /** Memory of the reply's own once deferred; this reference keeps it alive. */
    private MemorySegment owned;
    /** For open: the inode opened; with {@link #backingFd} the open is to be passed through. */
    private long openIno;
    private int backingFd = -1;
    /** {@link #LOOKUP} or {@link #OPENDIR}: answers the mount's kernel caching changes, else 0. */
    private byte kind;
    static final byte LOOKUP = 1;
    static final byte OPENDIR = 2;

    NativeReply(Replies replies, long req, long area) {
        this.replies = replies;
        this.req = req;
        this.area = area;
    }

    /** A lookup or an opendir, whose answers {@link Replies#negativeTimeout} and {@link Replies#dirOpenFlags} change. */
    NativeReply kind(byte kind) {
        this.kind = kind;
        return this;
    }

    /** For open: the inode being opened. */
    NativeReply opening(long ino) {
        this.openIno = ino;
        return this;
    }

    @Override
    public boolean passthrough(int fd) {
        BackingFiles backing = replies.backing;
        if (backing == null || backing.unavailable() != null) {
            return false;
        }
        backingFd = fd;
        return true;
    }

    /**
     * Registers the backing file of an open of {@code ino} and puts its id in the open reply's
     * file info (keep-cache and non-seekable cleared: the kernel fails the open with either
     * beside passthrough); null if it is not passed through.
     */
    private BackingFiles.Pending backing(long ino) {
        if (backingFd < 0 || replies.backing == null) {
            return null;
        }
        BackingFiles.Pending p = replies.backing.acquireInode(ino, backingFd);
        if (p != null) {
            long fi = area + FILE_INFO;
            fuse_file_info.backing_id(fi, p.backingId());
            fuse_file_info.bit(fi, replies.fileInfoBits.keepCache(), false);
            fuse_file_info.bit(fi, replies.fileInfoBits.nonseekable(), false);
        }
        return p;
    }

    /** For readdir: the batch is built at {@code buffer}, of at most {@code limit} bytes. */
    NativeReply directory(long buffer, int limit) {
        this.dir = buffer;
        this.dirLimit = limit;
        return this;
    }

    /** For ioctl: the caller takes back at most {@code outSize} bytes. */
    NativeReply output(int outSize) {
        this.dirLimit = outSize;
        return this;
    }

    /** Zeroes the entry and its attributes, for the operations that answer with them. */
    NativeReply withAttributes() {
        zero(area + ENTRY, fuse_entry_param.LAYOUT.byteSize());
        return this;
    }

    /** Zeroes for {@link #zero}: as large as the largest struct a reply clears. */
    private static final MemorySegment ZEROS = Arena.global().allocate(256, 16);

    /**
     * Clears {@code size} bytes at {@code at}. A copy from a zero segment: {@code asSlice(...).fill}
     * allocated a segment per call that the JIT did not always remove (40 bytes per open and per
     * readdirplus entry, measured).
     */
    private static void zero(long at, long size) {
        MemorySegment.copy(ZEROS, 0, Native.ALL, at, size);
    }

    boolean isOpen() {
        return state == OPEN;
    }

    // ---- state ----------------------------------------------------------------------------

    @Override
    public Reply defer() {
        String refused = replies.deferralRefused();
        if (refused != null) {
            throw new IllegalStateException("this mount cannot defer replies: " + refused);
        }
        if (!STATE.compareAndSet(this, OPEN, DEFERRED)) {
            throw new IllegalStateException(state == DEFERRED ? "the reply was already deferred" : "the request was already answered");
        }
        long size = AREA_SIZE + dirLimit;
        MemorySegment own = Arena.ofAuto().allocate(size, 16);
        MemorySegment.copy(Native.ALL, area, own, 0, AREA_SIZE);
        if (dir != 0 && dirUsed > 0) {
            MemorySegment.copy(Native.ALL, dir, own, AREA_SIZE, dirUsed);
        }
        owned = own;
        area = own.address();
        if (dir != 0) {
            dir = area + AREA_SIZE;
        }
        replies.deferred(this);
        return this;
    }

    @Override
    public boolean isAnswered() {
        int s = state;
        return s == SENT || s == DROPPED;
    }

    /**
     * Answers through {@code send} unless already answered: on the receiving thread directly, from
     * a deferred reply under the session's read lock (a session being torn down has dropped it).
     */
    private boolean answer(Sender send, long a, long b, double d) {
        int s = state;
        if (s == OPEN && STATE.compareAndSet(this, OPEN, SENT)) {
            return invoke(send, a, b, d) == 0;
        }
        if (s == DEFERRED || state == DEFERRED) {
            var lock = replies.lock();
            lock.lock();
            try {
                if (STATE.compareAndSet(this, DEFERRED, SENT)) {
                    replies.answered(this);
                    return invoke(send, a, b, d) == 0;
                }
            } finally {
                lock.unlock();
            }
        }
        if (state == DROPPED) {
            return false; // the session ended and answered for us
        }
        throw new IllegalStateException("the request was already answered");
    }

    /** The session ends: answer with {@code errno} if nobody has. */
    boolean drop(int errno) {
        if (STATE.compareAndSet(this, DEFERRED, DROPPED) || STATE.compareAndSet(this, OPEN, DROPPED)) {
            invoke(Sender.ERR, errno, 0, 0);
            return true;
        }
        return false;
    }

    /** Answers with {@code errno} if nobody has yet (a method threw or forgot): true if this did. */
    boolean failIfOpen(int errno) {
        if (STATE.compareAndSet(this, OPEN, SENT)) {
            if (cachedAbsent(errno)) {
                invoke(Sender.ENTRY, 0, 0, 0);
            } else {
                invoke(Sender.ERR, errno, 0, 0);
            }
            return true;
        }
        return false;
    }

    private enum Sender { ERR, ENTRY, CREATE, ATTR, OPEN, BUF, WRITE, XATTR, READLINK, STATFS, LOCK, LSEEK, BMAP, POLL, IOCTL }

    /** Calls libfuse: 0, or a negative errno if the kernel did not take the answer. */
    private int invoke(Sender send, long a, long b, double d) {
        var ll = replies.ll;
        try {
            return switch (send) {
                case ERR -> (int) ll.replyErr.invokeExact(req, (int) a);
                case ENTRY -> (int) ll.replyEntry.invokeExact(req, area + ENTRY);
                case CREATE -> (int) ll.replyCreate.invokeExact(req, area + ENTRY, area + FILE_INFO);
                case ATTR -> (int) ll.replyAttr.invokeExact(req, area + STAT, d);
                case OPEN -> (int) ll.replyOpen.invokeExact(req, area + FILE_INFO);
                case BUF -> (int) ll.replyBuf.invokeExact(req, a, b);
                case WRITE -> (int) ll.replyWrite.invokeExact(req, a);
                case XATTR -> (int) ll.replyXattr.invokeExact(req, a);
                case READLINK -> (int) ll.replyReadlink.invokeExact(req, area + NAME);
                case STATFS -> (int) ll.replyStatfs.invokeExact(req, area);
                case LOCK -> (int) ll.replyLock.invokeExact(req, area);
                case LSEEK -> (int) ll.replyLseek.invokeExact(req, a);
                case BMAP -> (int) ll.replyBmap.invokeExact(req, a);
                case POLL -> (int) ll.replyPoll.invokeExact(req, (int) a);
                case IOCTL -> (int) ll.replyIoctl.invokeExact(req, (int) d, a, b);
            };
        } catch (Throwable t) {
            throw new IllegalStateException("libfuse failed to send a reply", t);
        } finally {
            // The structs are passed as raw addresses: keep the memory they live in (this reply's
            // own once deferred) reachable until libfuse has copied them.
            java.lang.ref.Reference.reachabilityFence(this);
        }
    }

    // ---- answers ----------------------------------------------------------------------------

    @Override
    public void error(int errno) {
        if (errno < 0) {
            throw new IllegalArgumentException("an errno is positive (Errno.ENOENT), not " + errno);
        }
        if (cachedAbsent(errno)) {
            answer(Sender.ENTRY, 0, 0, 0);
        } else {
            answer(Sender.ERR, errno, 0, 0);
        }
    }

    @Override
    public void ok() {
        answer(Sender.ERR, 0, 0, 0);
    }

    @Override
    public long statAddress() {
        return area + STAT;
    }

    @Override
    public dev.fusepanama.Stat attributes() {
        return this;
    }

    @Override
    public boolean entry(long ino, long generation, double attrTimeout, double entryTimeout) {
        if (ino == 0) {
            throw new IllegalArgumentException("inode 0 is not a file; answer noEntry or error(ENOENT)");
        }
        entryParam(ino, generation, attrTimeout, entryTimeout);
        return answer(Sender.ENTRY, 0, 0, 0);
    }

    private void entryParam(long ino, long generation, double attrTimeout, double entryTimeout) {
        long e = area + ENTRY;
        fuse_entry_param.ino(e, ino);
        fuse_entry_param.generation(e, generation);
        fuse_entry_param.attr_timeout(e, attrTimeout);
        fuse_entry_param.entry_timeout(e, entryTimeout);
        if (stat.st_ino(area + STAT) == 0) {
            stat.st_ino(area + STAT, ino); // the number programs see, unless the filesystem gave its own
        }
    }

    @Override
    public void noEntry(double negativeTimeout) {
        negativeEntry(negativeTimeout);
        answer(Sender.ENTRY, 0, 0, 0);
    }

    private void negativeEntry(double negativeTimeout) {
        long e = area + ENTRY;
        zero(e, fuse_entry_param.LAYOUT.byteSize());
        fuse_entry_param.entry_timeout(e, negativeTimeout);
    }

    /**
     * For a lookup's ENOENT on a mount of {@code KernelCaching.negativeEntries}: builds the negative
     * entry to send instead, and says so.
     */
    private boolean cachedAbsent(int errno) {
        if (kind != LOOKUP || errno != dev.fusepanama.Errno.ENOENT) return false;
        double timeout = replies.negativeTimeout;
        if (timeout <= 0) return false;
        negativeEntry(timeout);
        return true;
    }

    @Override
    public boolean created(long ino, long generation, double attrTimeout, double entryTimeout, long fh, int flags) {
        if (ino == 0) {
            throw new IllegalArgumentException("inode 0 is not a file");
        }
        entryParam(ino, generation, attrTimeout, entryTimeout);
        fileInfo(fh, flags);
        BackingFiles.Pending p = backing(ino);
        boolean sent = answer(Sender.CREATE, 0, 0, 0);
        if (p != null) {
            replies.backing.settle(p, sent ? 0 : -1, ino, fh);
        }
        return sent;
    }

    @Override
    public void attributes(double timeout) {
        answer(Sender.ATTR, 0, 0, timeout);
    }

    @Override
    public boolean open(long fh, int flags) {
        if (kind == OPENDIR) flags |= replies.dirOpenFlags;
        fileInfo(fh, flags);
        BackingFiles.Pending p = openIno != 0 ? backing(openIno) : null;
        boolean sent = answer(Sender.OPEN, 0, 0, 0);
        if (p != null) {
            replies.backing.settle(p, sent ? 0 : -1, openIno, fh);
        }
        return sent;
    }

    private void fileInfo(long fh, int flags) {
        long fi = area + FILE_INFO;
        zero(fi, replies.fileInfoSize);
        fuse_file_info.fh(fi, fh);
        var bits = replies.fileInfoBits;
        if ((flags & DIRECT_IO) != 0) fuse_file_info.bit(fi, bits.directIo(), true);
        if ((flags & KEEP_CACHE) != 0) fuse_file_info.bit(fi, bits.keepCache(), true);
        if ((flags & NONSEEKABLE) != 0) fuse_file_info.bit(fi, bits.nonseekable(), true);
        if ((flags & CACHE_DIR) != 0 && bits.cacheReaddir() >= 0) fuse_file_info.bit(fi, bits.cacheReaddir(), true);
        if ((flags & NO_FLUSH) != 0) fuse_file_info.bit(fi, bits.noflush(), true);
    }

    @Override
    public void data(ByteBuffer data) {
        answerBytes(Sender.BUF, data, 0);
    }

    /** Answers with the remaining bytes of {@code data}: in place if direct, else copied to this thread's bounce area. */
    private void answerBytes(Sender send, ByteBuffer data, double d) {
        int n = data.remaining();
        if (data.isDirect()) {
            answer(send, InodeThread.get().addressOf(data), n, d);
            // the buffer must stay reachable until the reply has been written
            java.lang.ref.Reference.reachabilityFence(data);
            return;
        }
        long bounce = InodeThread.bounce(n);
        MemorySegment.copy(MemorySegment.ofBuffer(data), 0, Native.ALL, bounce, n);
        answer(send, bounce, n, d);
    }

    @Override
    public void data(byte[] data, int offset, int length) {
        java.util.Objects.checkFromIndexSize(offset, length, data.length);
        long bounce = InodeThread.bounce(length);
        MemorySegment.copy(data, offset, Native.ALL, java.lang.foreign.ValueLayout.JAVA_BYTE, bounce, length);
        answer(Sender.BUF, bounce, length, 0);
    }

    @Override
    public void size(long size) {
        answer(Sender.XATTR, size, 0, 0);
    }

    @Override
    public void written(long count) {
        answer(Sender.WRITE, count, 0, 0);
    }

    @Override
    public void target(byte[] target) {
        if (target.length > NAME_CAPACITY - 1) {
            throw new IllegalArgumentException("a link target is at most " + (NAME_CAPACITY - 1) + " bytes");
        }
        putName(target);
        answer(Sender.READLINK, 0, 0, 0);
    }

    private long putName(byte[] name) {
        long at = area + NAME;
        MemorySegment.copy(name, 0, Native.ALL, java.lang.foreign.ValueLayout.JAVA_BYTE, at, name.length);
        Native.putByte(at + name.length, (byte) 0);
        return at;
    }

    @Override
    public StatVfs statvfs() {
        return new NativeStatVfs().at(area);
    }

    @Override
    public void statfs() {
        answer(Sender.STATFS, 0, 0, 0);
    }

    @Override
    public void lock(Flock lock) {
        long f = area;
        flock.l_type(f, lock.type());
        flock.l_whence(f, lock.whence());
        flock.l_start(f, lock.start());
        flock.l_len(f, lock.length());
        flock.l_pid(f, lock.pid());
        answer(Sender.LOCK, 0, 0, 0);
    }

    @Override
    public void offset(long offset) {
        answer(Sender.LSEEK, offset, 0, 0);
    }

    @Override
    public void block(long block) {
        answer(Sender.BMAP, block, 0, 0);
    }

    @Override
    public void events(int revents) {
        answer(Sender.POLL, revents, 0, 0);
    }

    @Override
    public void result(int result) {
        answer(Sender.IOCTL, 0, 0, result);
    }

    @Override
    public void result(int result, ByteBuffer out) {
        int n = out.remaining();
        if (n > dirLimit) {
            throw new IllegalArgumentException("the caller takes back at most " + dirLimit + " bytes, not " + n);
        }
        answerBytes(Sender.IOCTL, out, result); // the result travels as the double argument: exact for an int
    }

    // ---- directory batches ---------------------------------------------------------------------

    @Override
    public boolean add(byte[] name, long ino, int type, long nextOffset) {
        checkBatch(name);
        long st = area + STAT;
        stat.st_ino(st, ino);
        stat.st_mode(st, type & dev.fusepanama.Posix.S_IFMT);
        long n;
        try {
            n = (long) replies.ll.addDirentry.invokeExact(req, dir + dirUsed, (long) (dirLimit - dirUsed), putName(name), st, nextOffset);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        } finally {
            java.lang.ref.Reference.reachabilityFence(this);
        }
        return took(n);
    }

    @Override
    public boolean add(byte[] name, long ino, long generation, double attrTimeout, double entryTimeout, long nextOffset) {
        checkBatch(name);
        entryParam(ino, generation, attrTimeout, entryTimeout);
        long n;
        try {
            n = (long) replies.ll.addDirentryPlus.invokeExact(req, dir + dirUsed, (long) (dirLimit - dirUsed), putName(name), area + ENTRY, nextOffset);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        } finally {
            java.lang.ref.Reference.reachabilityFence(this);
        }
        if (took(n)) {
            zero(area + ENTRY, fuse_entry_param.LAYOUT.byteSize());
            return true;
        }
        return false;
    }

    private void checkBatch(byte[] name) {
        if (dir == 0) {
            throw new IllegalStateException("not a directory listing");
        }
        if (isAnswered()) {
            throw new IllegalStateException("the batch was already sent");
        }
        if (name.length == 0 || name.length > 255) {
            throw new IllegalArgumentException("a directory entry's name has 1 to 255 bytes, not " + name.length);
        }
        for (byte b : name) {
            if (b == 0 || b == '/') {
                throw new IllegalArgumentException("a directory entry's name contains no NUL and no '/'");
            }
        }
    }

    private boolean took(long n) {
        if (n > dirLimit - dirUsed) {
            return false;
        }
        dirUsed += (int) n;
        return true;
    }

    @Override
    public boolean send() {
        return answer(Sender.BUF, dir, dirUsed, 0);
    }
}
