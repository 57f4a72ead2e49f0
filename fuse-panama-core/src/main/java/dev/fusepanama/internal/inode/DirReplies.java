package dev.fusepanama.internal.inode;

import dev.fusepanama.Posix;
import dev.fusepanama.Stat;
import dev.fusepanama.inode.DirReply;
import dev.fusepanama.inode.Inode;
import dev.fusepanama.inode.Timeouts;
import dev.fusepanama.internal.bind.Native;
import dev.fusepanama.internal.bind.fuse_dirent;
import dev.fusepanama.internal.view.StatFields;
import dev.fusepanama.libc.structs.stat;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.Arrays;

/**
 * The directory batches of readdir and readdirplus: entries packed into the thread's listing
 * buffer as libfuse's {@code fuse_add_direntry} and {@code fuse_add_direntry_plus} pack them, and
 * sent as one buffer. A readdirplus batch counts the lookup of each entry it takes, for a
 * filesystem whose lookups the library counts, and takes them back if the batch does not reach
 * the kernel.
 */
final class DirReplies {
    private DirReplies() {}

    private static final org.slf4j.Logger LOG = TypedReplies.LOG;
    private static final MethodHandle REPLY_BUF = TypedReplies.REPLY_BUF;
    private static final MethodHandle ADD_DIRENTRY_PLUS = TypedReplies.ADD_DIRENTRY_PLUS;

    /** What a directory batch of either kind keeps: where it is built, its limit, what it holds, and the next entry's attributes. */
    abstract static class Batch extends NativeReply implements DirReply, StatFields {
        long dir;
        final int limit;
        int used;

        Batch(Replies replies, long req, long area, long dir, int limit) {
            super(replies, req, area);
            this.dir = dir;
            this.limit = limit;
            TypedReplies.clearEntry(area);
        }

        @Override
        public final long statAddress() {
            return area + STAT;
        }

        @Override
        public final Stat attributes() {
            return this;
        }

        /** The name at the area's name slot, NUL-terminated, checked. */
        final long name(byte[] name) {
            check(name);
            long at = area + NAME;
            MemorySegment.copy(name, 0, Native.ALL, ValueLayout.JAVA_BYTE, at, name.length);
            Native.putByte(at + name.length, (byte) 0);
            return at;
        }

        /** Refuses a name the kernel would not take, or an entry for a batch already sent. */
        final void check(byte[] name) {
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

        /** Whether an entry of {@code n} bytes was past the room left (libfuse then wrote nothing); counts it otherwise. */
        final boolean full(long n) {
            if (n > limit - used) {
                return true;
            }
            used += (int) n;
            return false;
        }

        @Override
        final long extraSize() {
            return limit;
        }

        @Override
        final void moved(MemorySegment own, long at) {
            MemorySegment.copy(Native.ALL, dir, own, at, used);
            dir = own.address() + at;
        }

        public final boolean send() {
            boolean sent = false;
            try {
                sent = answer();
                return sent;
            } finally {
                if (!sent) notSent();
            }
        }

        /** The batch was not taken, or is answered with an error: nothing of it reached the kernel. */
        void notSent() {
        }

        @Override
        final void sendError(int errno) {
            try {
                notSent();
            } finally {
                super.sendError(errno);
            }
        }

        @Override
        final int transmit() throws Throwable {
            return (int) REPLY_BUF.invokeExact(req, dir, (long) used);
        }
    }

    /** readdir: names with their inode numbers and types. */
    static final class Dir extends Batch {
        Dir(Replies replies, long req, long area, long dir, int limit) {
            super(replies, req, area, dir, limit);
        }

        @Override
        public boolean plus() {
            return false;
        }

        /** READDIR takes no inode: the name, with the attributes' st_ino (the node id if 0) and type. */
        @Override
        public boolean add(byte[] name, Inode inode, Timeouts timeouts, long nextOffset) {
            long st = area + STAT;
            long ino = stat.st_ino(st) != 0 ? stat.st_ino(st) : inode.nodeId();
            int type = stat.st_mode(st) & Posix.S_IFMT;
            boolean full = add(name, ino, type, nextOffset);
            if (!full) {
                TypedReplies.clearEntry(area);
            }
            return full;
        }

        /** Packs the entry as {@code fuse_add_direntry} does, without a native call per entry. */
        @Override
        public boolean add(byte[] name, long ino, int type, long nextOffset) {
            check(name);
            long size = fuse_dirent.size(name.length);
            if (size > limit - used) {
                return true;
            }
            fuse_dirent.put(dir + used, ino, nextOffset, name, type & Posix.S_IFMT);
            used += (int) size;
            return false;
        }
    }

    /** readdirplus: entries with their inodes and attributes. */
    static final class DirPlus extends Batch {
        DirPlus(Replies replies, long req, long area, long dir, int limit) {
            super(replies, req, area, dir, limit);
        }

        @Override
        public boolean plus() {
            return true;
        }

        /**
         * Adds the entry, counting the lookup the kernel will hold unless it is "." or ".." (the
         * kernel counts none for them). A node dropped before it could be counted goes as its
         * name alone: the kernel looks it up when it needs it.
         */
        @Override
        public boolean add(byte[] name, Inode inode, Timeouts timeouts, long nextOffset) {
            long at = name(name);
            TypedReplies.entry(area, inode, timeouts);
            boolean counts = replies.counter != null && !isDot(name);
            if (counts && !replies.counter.count(inode)) {
                long ino = stat.st_ino(area + STAT);
                int type = stat.st_mode(area + STAT) & Posix.S_IFMT;
                LOG.debug("node {} was dropped before its readdirplus entry was sent; listing its name alone", inode.nodeId());
                return add(name, ino, type, nextOffset);
            }
            boolean full = true;
            try {
                full = full((long) ADD_DIRENTRY_PLUS.invokeExact(req, dir + used, (long) (limit - used), at, area + ENTRY, nextOffset));
            } catch (Throwable t) {
                throw new IllegalStateException(t);
            } finally {
                if (counts) {
                    if (full) replies.uncount(inode.nodeId());
                    else counted(inode.nodeId());
                }
            }
            if (!full) {
                TypedReplies.clearEntry(area);
            }
            return full;
        }

        private static boolean isDot(byte[] name) {
            return name[0] == '.' && (name.length == 1 || name.length == 2 && name[1] == '.');
        }

        /**
         * The node ids this batch counted a lookup of, to take back if it is not sent; made at
         * the first one, so a filesystem that counts its own lookups allocates nothing for it.
         */
        private long[] counted;
        private int countedSize;

        private void counted(long nodeId) {
            if (counted == null) {
                counted = new long[32];
            } else if (countedSize == counted.length) {
                counted = Arrays.copyOf(counted, countedSize * 2);
            }
            counted[countedSize++] = nodeId;
        }

        /** The batch did not reach the kernel (not taken, or answered with an error instead): its lookups go back, once. */
        @Override
        void notSent() {
            long[] c = counted; // read once: a deferred batch may be dropped by another thread than the one filling it
            int n = c == null ? 0 : Math.min(countedSize, c.length);
            countedSize = 0;
            for (int i = 0; i < n; i++) replies.uncount(c[i]);
        }

        /** By name alone: node id 0, so the kernel lists the name and links no inode to it. */
        @Override
        public boolean add(byte[] name, long ino, int type, long nextOffset) {
            long at = name(name);
            TypedReplies.clearEntry(area); // node id 0: the kernel lists the name and links no inode to it
            setMode(type & Posix.S_IFMT);
            setIno(ino); // libfuse takes the entry's d_ino from the attributes
            boolean full;
            try {
                full = full((long) ADD_DIRENTRY_PLUS.invokeExact(req, dir + used, (long) (limit - used), at, area + ENTRY, nextOffset));
            } catch (Throwable t) {
                throw new IllegalStateException(t);
            }
            TypedReplies.clearEntry(area);
            return full;
        }
    }
}
