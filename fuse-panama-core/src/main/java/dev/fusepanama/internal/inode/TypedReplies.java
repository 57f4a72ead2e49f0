package dev.fusepanama.internal.inode;

import dev.fusepanama.Errno;
import dev.fusepanama.Flock;
import dev.fusepanama.Stat;
import dev.fusepanama.StatVfs;
import dev.fusepanama.inode.AttrReply;
import dev.fusepanama.inode.BmapReply;
import dev.fusepanama.inode.CreateReply;
import dev.fusepanama.inode.DataReply;
import dev.fusepanama.inode.EmptyReply;
import dev.fusepanama.inode.EntryReply;
import dev.fusepanama.inode.Inode;
import dev.fusepanama.inode.IoctlReply;
import dev.fusepanama.inode.LockReply;
import dev.fusepanama.inode.LseekReply;
import dev.fusepanama.inode.OpenReply;
import dev.fusepanama.inode.PollReply;
import dev.fusepanama.inode.ReadlinkReply;
import dev.fusepanama.inode.StatfsReply;
import dev.fusepanama.inode.StatxReply;
import dev.fusepanama.inode.Timeouts;
import dev.fusepanama.inode.WriteReply;
import dev.fusepanama.inode.XattrReply;
import dev.fusepanama.internal.bind.LibFuse;
import dev.fusepanama.internal.bind.LibFuseLowLevel;
import dev.fusepanama.internal.bind.Native;
import dev.fusepanama.internal.bind.fuse_entry_param;
import dev.fusepanama.internal.bind.fuse_file_info;
import dev.fusepanama.internal.passthrough.BackingFiles;
import dev.fusepanama.internal.view.NativeStatVfs;
import dev.fusepanama.internal.view.NativeStatx;
import dev.fusepanama.internal.view.StatFields;
import dev.fusepanama.libc.structs.flock;
import dev.fusepanama.libc.structs.stat;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.ref.Reference;
import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * One small reply class per kind of answer, as fuser's {@code ReplyEntry}, {@code ReplyAttr},
 * ...: each implements exactly one public reply interface, takes its own typed arguments and
 * calls its own libfuse function, held in a static final field here so the JIT calls it
 * directly. What they share (exactly once, deferral, the drop at teardown) is {@link NativeReply}.
 */
final class TypedReplies {
    private TypedReplies() {}

    static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(TypedReplies.class);
    private static final LibFuseLowLevel LL = LibFuse.get().lowLevel;
    static final MethodHandle REPLY_ERR = LL.replyErr;
    private static final MethodHandle REPLY_ENTRY = LL.replyEntry;
    private static final MethodHandle REPLY_CREATE = LL.replyCreate;
    private static final MethodHandle REPLY_ATTR = LL.replyAttr;
    private static final MethodHandle REPLY_OPEN = LL.replyOpen;
    static final MethodHandle REPLY_BUF = LL.replyBuf;
    private static final MethodHandle REPLY_WRITE = LL.replyWrite;
    private static final MethodHandle REPLY_XATTR = LL.replyXattr;
    private static final MethodHandle REPLY_READLINK = LL.replyReadlink;
    private static final MethodHandle REPLY_STATFS = LL.replyStatfs;
    private static final MethodHandle REPLY_LOCK = LL.replyLock;
    private static final MethodHandle REPLY_LSEEK = LL.replyLseek;
    private static final MethodHandle REPLY_BMAP = LL.replyBmap;
    private static final MethodHandle REPLY_POLL = LL.replyPoll;
    private static final MethodHandle REPLY_IOCTL = LL.replyIoctl;
    static final MethodHandle ADD_DIRENTRY_PLUS = LL.addDirentryPlus;

    /** Fills the entry at {@code area} for {@code inode}; its attributes' st_ino, left 0, becomes the node id. */
    static void entry(long area, Inode inode, Timeouts timeouts) {
        long ino = inode.nodeId();
        if (ino == 0) {
            throw new IllegalArgumentException("node id 0 is not a file; answer noEntry or error(ENOENT)");
        }
        long e = area + NativeReply.ENTRY;
        fuse_entry_param.ino(e, ino);
        fuse_entry_param.generation(e, inode.generation());
        fuse_entry_param.attr_timeout(e, timeouts.attributes());
        fuse_entry_param.entry_timeout(e, timeouts.entries());
        if (stat.st_ino(area + NativeReply.STAT) == 0) {
            stat.st_ino(area + NativeReply.STAT, ino); // the number programs see, unless the filesystem gave its own
        }
    }

    /** Zeroes the entry with its attributes, for the kinds that answer with them. */
    static void clearEntry(long area) {
        NativeReply.zero(area + NativeReply.ENTRY, fuse_entry_param.LAYOUT.byteSize());
    }

    /** The address of the remaining bytes of {@code data}: in place if direct, else copied to this thread's bounce area. */
    private static long bytesAddress(ByteBuffer data) {
        int n = data.remaining();
        if (data.isDirect()) {
            return InodeThread.get().addressOf(data);
        }
        long bounce = InodeThread.bounce(n);
        MemorySegment.copy(MemorySegment.ofBuffer(data), 0, Native.ALL, bounce, n);
        return bounce;
    }

    /** unlink, rename, setxattr, release, fsync, ...: success carries nothing. */
    static final class Empty extends NativeReply implements EmptyReply {
        Empty(Replies replies, long req, long area) {
            super(replies, req, area);
        }

        @Override
        public void ok() {
            answer();
        }

        @Override
        int transmit() throws Throwable {
            return (int) REPLY_ERR.invokeExact(req, 0);
        }
    }

    /** What entries and attributes share: the attributes, at the area's stat (create and readdirplus have their own). */
    abstract static class WithAttributes extends NativeReply implements StatFields {
        WithAttributes(Replies replies, long req, long area) {
            super(replies, req, area);
            clearEntry(area);
        }

        @Override
        public final long statAddress() {
            return area + STAT;
        }

        public final Stat attributes() {
            return this;
        }
    }

    /** mknod, mkdir, symlink, link: a name's inode. */
    static class Entry extends WithAttributes implements EntryReply {
        Entry(Replies replies, long req, long area) {
            super(replies, req, area);
        }

        @Override
        public final boolean entry(Inode inode, Timeouts timeouts) {
            checkOpen();
            TypedReplies.entry(area, inode, timeouts);
            if (!replies.count(inode)) {
                return gone(inode);
            }
            boolean sent = false;
            try {
                sent = answer();
                return sent;
            } finally {
                if (!sent) replies.uncount(inode.nodeId());
            }
        }

        /** The entry's node was dropped before it could be counted: ENOENT (a lookup is asked again instead). */
        boolean gone(Inode inode) {
            LOG.debug("node {} was dropped before its entry was sent; answering ENOENT", inode.nodeId());
            error(Errno.ENOENT);
            return false;
        }

        /**
         * A lookup's negative entry; for mknod, mkdir, symlink and link, whose kernel side takes
         * no negative entry (it would fail the call with EIO), ENOENT.
         */
        @Override
        public void noEntry(double negativeTimeout) {
            checkTimeout(negativeTimeout);
            error(Errno.ENOENT);
        }

        static void checkTimeout(double seconds) {
            if (!(seconds >= 0) || Double.isInfinite(seconds)) {
                throw new IllegalArgumentException("a negative entry's timeout is a finite number of seconds >= 0, not " + seconds);
            }
        }

        /** Makes the entry a negative one: inode 0, the absence trusted for {@code timeout} seconds. */
        final void negative(double timeout) {
            clearEntry(area);
            fuse_entry_param.entry_timeout(area + ENTRY, timeout);
        }

        @Override
        final int transmit() throws Throwable {
            return (int) REPLY_ENTRY.invokeExact(req, area + ENTRY);
        }
    }

    /** lookup: an entry whose ENOENT becomes a negative entry on a mount that caches absent names. */
    static final class Lookup extends Entry {
        /** How many times a lookup is asked of the filesystem when its node is dropped each time before being counted. */
        static final int ATTEMPTS = 3;
        private final boolean mayAskAgain;
        private boolean askAgain;

        Lookup(Replies replies, long req, long area, boolean mayAskAgain) {
            super(replies, req, area);
            this.mayAskAgain = mayAskAgain;
        }

        /** Whether the filesystem answered with a node dropped meanwhile, and is to be asked again: this reply is closed. */
        boolean askAgain() {
            return askAgain;
        }

        /**
         * The node was dropped between the filesystem finding it and the library counting it
         * (the kernel forgot it, or its name went, meanwhile): the lookup is asked again, with a
         * fresh reply, unless it was deferred or asked often enough already.
         */
        @Override
        boolean gone(Inode inode) {
            if (mayAskAgain && withdraw()) {
                askAgain = true;
                return false;
            }
            return super.gone(inode);
        }

        /** A negative entry: the kernel remembers for {@code negativeTimeout} seconds that the name does not exist. */
        @Override
        public void noEntry(double negativeTimeout) {
            checkTimeout(negativeTimeout);
            checkOpen();
            negative(negativeTimeout);
            answer();
        }

        @Override
        void sendError(int errno) {
            double timeout = replies.negativeTimeout;
            if (errno != Errno.ENOENT || timeout <= 0) {
                super.sendError(errno);
                return;
            }
            negative(timeout);
            try {
                int rc = transmit();
            } catch (Throwable t) {
                throw sendFailed(t);
            }
        }
    }

    /**
     * What open and create share: the file info of the answer, and the passthrough of the opened
     * file (registered with the kernel as the answer is sent, settled by whether it was taken).
     */
    abstract static class Opening extends NativeReply {
        private int backingFd = -1;

        Opening(Replies replies, long req, long area) {
            super(replies, req, area);
        }

        /** The inode being opened (known once the answer is given). */
        abstract long opened();

        /** An opendir: never passed through. */
        boolean isDirectory() {
            return false;
        }

        public final boolean passthrough(int fd) {
            BackingFiles backing = replies.backing;
            if (isDirectory() || backing == null || backing.unavailable() != null) {
                return false;
            }
            backingFd = fd;
            return true;
        }

        /** Fills the file info with {@code fh} and {@code flags} ({@link OpenReply#DIRECT_IO}, ...). */
        final void fileInfo(long fh, int flags) {
            long fi = area + FILE_INFO;
            zero(fi, replies.fileInfoSize);
            fuse_file_info.fh(fi, fh);
            var bits = replies.fileInfoBits;
            if ((flags & OpenReply.DIRECT_IO) != 0) fuse_file_info.bit(fi, bits.directIo(), true);
            if ((flags & OpenReply.KEEP_CACHE) != 0) fuse_file_info.bit(fi, bits.keepCache(), true);
            if ((flags & OpenReply.NONSEEKABLE) != 0) fuse_file_info.bit(fi, bits.nonseekable(), true);
            if ((flags & OpenReply.CACHE_DIR) != 0 && bits.cacheReaddir() >= 0) fuse_file_info.bit(fi, bits.cacheReaddir(), true);
            if ((flags & OpenReply.NO_FLUSH) != 0) fuse_file_info.bit(fi, bits.noflush(), true);
        }

        /**
         * Once the right to answer is taken: registers the backing file of a passed-through open
         * and puts its id in the file info, clearing keep-cache and non-seekable (the kernel fails
         * the open with either beside passthrough). Null if the open is not passed through; a
         * registration that fails is logged and the file served by the filesystem, so the
         * answer is still sent.
         */
        private BackingFiles.Pending registerBacking() {
            if (backingFd < 0 || replies.backing == null) {
                return null;
            }
            try {
                BackingFiles.Pending p = replies.backing.acquireInode(opened(), backingFd);
                if (p != null) {
                    long fi = area + FILE_INFO;
                    fuse_file_info.backing_id(fi, p.backingId());
                    fuse_file_info.bit(fi, replies.fileInfoBits.keepCache(), false);
                    fuse_file_info.bit(fi, replies.fileInfoBits.nonseekable(), false);
                }
                return p;
            } catch (RuntimeException e) {
                LOG.warn("passing inode {} through failed; its data goes through the filesystem", opened(), e);
                return null;
            }
        }

        /**
         * Answers, the backing file registered once the right to answer is taken, then settles
         * that registration, once, by whether the kernel took the open.
         */
        final boolean answerOpen(long fh) {
            if (!claim()) {
                return false;
            }
            BackingFiles.Pending p = null;
            boolean sent = false;
            try {
                p = registerBacking();
                sent = transmit() == 0;
                return sent;
            } catch (Throwable t) {
                throw sendFailed(t);
            } finally {
                release();
                if (p != null) {
                    replies.backing.settle(p, sent ? 0 : -1, opened(), fh);
                }
            }
        }
    }

    /** create: a new file's entry and its open file. */
    static final class Create extends Opening implements CreateReply, StatFields {
        private long ino;

        Create(Replies replies, long req, long area) {
            super(replies, req, area);
            clearEntry(area);
        }

        @Override
        public long statAddress() {
            return area + STAT;
        }

        @Override
        public Stat attributes() {
            return this;
        }

        @Override
        long opened() {
            return ino;
        }

        @Override
        public boolean created(Inode inode, Timeouts timeouts, long fh, int flags) {
            checkOpen();
            TypedReplies.entry(area, inode, timeouts);
            if (!replies.count(inode)) {
                LOG.debug("node {} was dropped before its entry was sent; answering ENOENT", inode.nodeId());
                error(Errno.ENOENT);
                return false;
            }
            ino = inode.nodeId();
            fileInfo(fh, flags);
            boolean sent = false;
            try {
                sent = answerOpen(fh);
                return sent;
            } finally {
                if (!sent) replies.uncount(ino);
            }
        }

        @Override
        int transmit() throws Throwable {
            return (int) REPLY_CREATE.invokeExact(req, area + ENTRY, area + FILE_INFO);
        }
    }

    /** open and opendir: a file handle. */
    static final class Open extends Opening implements OpenReply {
        /** The inode opened; 0 for a directory. */
        private final long ino;

        Open(Replies replies, long req, long area, long ino) {
            super(replies, req, area);
            this.ino = ino;
        }

        @Override
        long opened() {
            return ino;
        }

        @Override
        boolean isDirectory() {
            return ino == 0;
        }

        @Override
        public boolean open(long fh, int flags) {
            checkOpen();
            fileInfo(fh, ino == 0 ? flags | replies.dirOpenFlags : flags);
            return answerOpen(fh);
        }

        @Override
        int transmit() throws Throwable {
            return (int) REPLY_OPEN.invokeExact(req, area + FILE_INFO);
        }
    }

    /** getattr, setattr: an inode's attributes. */
    static final class Attr extends WithAttributes implements AttrReply {
        private double timeout;

        Attr(Replies replies, long req, long area) {
            super(replies, req, area);
        }

        @Override
        public void send(Timeouts timeouts) {
            timeout = timeouts.attributes();
            answer();
        }

        @Override
        int transmit() throws Throwable {
            return (int) REPLY_ATTR.invokeExact(req, area + STAT, timeout);
        }
    }

    /** read: bytes, sent from where they are ({@code address}) when that is native memory. */
    static class Data extends NativeReply implements DataReply {
        long address;
        long size;

        Data(Replies replies, long req, long area) {
            super(replies, req, area);
        }

        @Override
        public final void data(ByteBuffer data) {
            address = bytesAddress(data);
            size = data.remaining();
            try {
                answer();
            } finally {
                Reference.reachabilityFence(data); // libfuse reads its memory
            }
        }

        @Override
        public final void data(byte[] data, int offset, int length) {
            Objects.checkFromIndexSize(offset, length, data.length);
            address = InodeThread.bounce(length);
            size = length;
            MemorySegment.copy(data, offset, Native.ALL, ValueLayout.JAVA_BYTE, address, length);
            answer();
        }

        @Override
        int transmit() throws Throwable {
            return (int) REPLY_BUF.invokeExact(req, address, size);
        }
    }

    /** getxattr, listxattr: a value's bytes or, asked with size 0, its size. */
    static final class Xattr extends Data implements XattrReply {
        private boolean sizeOnly;

        Xattr(Replies replies, long req, long area) {
            super(replies, req, area);
        }

        @Override
        public void size(long size) {
            this.size = size;
            sizeOnly = true;
            answer();
        }

        @Override
        int transmit() throws Throwable {
            return sizeOnly ? (int) REPLY_XATTR.invokeExact(req, size) : super.transmit();
        }
    }

    /** write, write_buf, copy_file_range: a count. */
    static final class Write extends NativeReply implements WriteReply {
        private long count;

        Write(Replies replies, long req, long area) {
            super(replies, req, area);
        }

        @Override
        public void written(long count) {
            if (count < 0) {
                throw new IllegalArgumentException("a count of bytes written is >= 0, not " + count + "; answer error(errno)");
            }
            this.count = count;
            answer();
        }

        @Override
        int transmit() throws Throwable {
            return (int) REPLY_WRITE.invokeExact(req, count);
        }
    }

    /** readlink: a target, at the area's name. */
    static final class Readlink extends NativeReply implements ReadlinkReply {
        Readlink(Replies replies, long req, long area) {
            super(replies, req, area);
        }

        @Override
        public void target(byte[] target) {
            if (target.length > NAME_CAPACITY - 1) {
                throw new IllegalArgumentException("a link target is at most " + (NAME_CAPACITY - 1) + " bytes");
            }
            checkOpen();
            long at = area + NAME;
            MemorySegment.copy(target, 0, Native.ALL, ValueLayout.JAVA_BYTE, at, target.length);
            Native.putByte(at + target.length, (byte) 0);
            answer();
        }

        @Override
        int transmit() throws Throwable {
            return (int) REPLY_READLINK.invokeExact(req, area + NAME);
        }
    }

    /** statfs: the filesystem's sizes, at the area's start. */
    static final class Statfs extends NativeReply implements StatfsReply {
        Statfs(Replies replies, long req, long area) {
            super(replies, req, area);
            clearEntry(area); // larger than a statvfs
        }

        /** The view handed out, re-pointed when the reply moves (deferred). */
        private NativeStatVfs view;

        @Override
        public StatVfs statvfs() {
            if (view == null) {
                view = new NativeStatVfs();
            }
            return view.at(area);
        }

        @Override
        void moved(MemorySegment own, long at) {
            if (view != null) {
                view.at(area);
            }
        }

        @Override
        public void send() {
            answer();
        }

        @Override
        int transmit() throws Throwable {
            return (int) REPLY_STATFS.invokeExact(req, area);
        }
    }

    /** getlk: the conflicting lock, at the area's start. */
    static final class Lock extends NativeReply implements LockReply {
        Lock(Replies replies, long req, long area) {
            super(replies, req, area);
        }

        @Override
        public void lock(Flock lock) {
            checkOpen();
            flock.l_type(area, lock.type());
            flock.l_whence(area, lock.whence());
            flock.l_start(area, lock.start());
            flock.l_len(area, lock.length());
            flock.l_pid(area, lock.pid());
            answer();
        }

        @Override
        int transmit() throws Throwable {
            return (int) REPLY_LOCK.invokeExact(req, area);
        }
    }

    /** What lseek and bmap answer: one number. */
    abstract static class Number extends NativeReply {
        long value;

        Number(Replies replies, long req, long area) {
            super(replies, req, area);
        }
    }

    /** lseek: an offset. */
    static final class Lseek extends Number implements LseekReply {
        Lseek(Replies replies, long req, long area) {
            super(replies, req, area);
        }

        @Override
        public void offset(long offset) {
            value = offset;
            answer();
        }

        @Override
        int transmit() throws Throwable {
            return (int) REPLY_LSEEK.invokeExact(req, value);
        }
    }

    /** bmap: a block. */
    static final class Bmap extends Number implements BmapReply {
        Bmap(Replies replies, long req, long area) {
            super(replies, req, area);
        }

        @Override
        public void block(long block) {
            value = block;
            answer();
        }

        @Override
        int transmit() throws Throwable {
            return (int) REPLY_BMAP.invokeExact(req, value);
        }
    }

    /** poll: the ready events. */
    static final class Poll extends NativeReply implements PollReply {
        private int revents;

        Poll(Replies replies, long req, long area) {
            super(replies, req, area);
        }

        @Override
        public void events(int revents) {
            this.revents = revents;
            answer();
        }

        @Override
        int transmit() throws Throwable {
            return (int) REPLY_POLL.invokeExact(req, revents);
        }
    }

    /** ioctl: a result and the bytes the caller takes back. */
    static final class Ioctl extends NativeReply implements IoctlReply {
        /** The most bytes the caller takes back. */
        private final int outSize;
        private int result;
        private long address;
        private long size;

        Ioctl(Replies replies, long req, long area, int outSize) {
            super(replies, req, area);
            this.outSize = outSize;
        }

        @Override
        public void result(int result) {
            this.result = result;
            answer();
        }

        @Override
        public void result(int result, ByteBuffer out) {
            int n = out.remaining();
            if (n > outSize) {
                throw new IllegalArgumentException("the caller takes back at most " + outSize + " bytes, not " + n);
            }
            this.result = result;
            address = bytesAddress(out);
            size = n;
            try {
                answer();
            } finally {
                Reference.reachabilityFence(out);
            }
        }

        @Override
        int transmit() throws Throwable {
            return (int) REPLY_IOCTL.invokeExact(req, result, address, size);
        }
    }

    /** statx: extended attributes, at the area's name slot (a struct statx is larger than the rest). */
    static final class Statx extends NativeReply implements StatxReply {
        private static final MethodHandle REPLY_STATX = LL.replyStatx;
        private double timeout;

        Statx(Replies replies, long req, long area) {
            super(replies, req, area);
            NativeReply.zero(area + NAME, dev.fusepanama.libc.structs.statx.SIZE);
        }

        /** The view handed out, re-pointed when the reply moves (deferred). */
        private NativeStatx view;

        @Override
        public dev.fusepanama.Statx attributes() { // full name: this reply class is Statx too
            if (view == null) {
                view = new NativeStatx();
            }
            return view.at(area + NAME);
        }

        @Override
        void moved(MemorySegment own, long at) {
            if (view != null) {
                view.at(area + NAME);
            }
        }

        @Override
        public void send(Timeouts timeouts) {
            timeout = timeouts.attributes();
            answer();
        }

        @Override
        int transmit() throws Throwable {
            return (int) REPLY_STATX.invokeExact(req, 0, area + NAME, timeout);
        }
    }
}
