package dev.fusepanama.examples.mirror;

import dev.fusepanama.Errno;
import dev.fusepanama.Posix;
import dev.fusepanama.FileNames;
import dev.fusepanama.Stat;
import dev.fusepanama.inode.DirReply;
import dev.fusepanama.inode.Inode;
import dev.fusepanama.inode.Name;
import dev.fusepanama.inode.Reply;
import dev.fusepanama.libc.Dirents;
import dev.fusepanama.libc.Libc;
import dev.fusepanama.libc.Scratch;
import java.util.Arrays;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The mirror's open directories: a descriptor of the source directory each, with the offset it
 * stands at. Entries come from {@code getdents64(2)} with the source's own offsets, so a listing is
 * as stable under concurrent change as the source's; a descriptor seeks only when the kernel asks
 * from elsewhere than where it stands.
 */
final class DirStreams {
    /** An open directory: its descriptor and the offset its position is at (-1: unknown). */
    private static final class DirStream {
        final int fd;
        long position;

        DirStream(int fd) {
            this.fd = fd;
        }
    }

    private final ConcurrentHashMap<Integer, DirStream> open = new ConcurrentHashMap<>();

    /** Keeps {@code fd}, a descriptor of a directory just opened; its handle is the descriptor. */
    void add(int fd) {
        open.put(fd, new DirStream(fd));
    }

    /** Forgets {@code fd} and closes it: 0 or -errno. */
    int close(int fd) {
        open.remove(fd);
        return Libc.close(fd);
    }

    /** The mount has ended: every descriptor still open is closed. */
    void closeAll() {
        for (Integer fd : open.keySet()) {
            close(fd);
        }
    }

    /**
     * Answers a readdirplus of handle {@code fh}, a listing of {@code dir}, from {@code offset}:
     * as many entries as the reply takes, each looked up as a lookup would ({@link SourceNodes#nodeOf}),
     * so that {@code ls -l} and {@code find} need no lookup per entry. An entry that cannot be
     * looked up (removed meanwhile, a filesystem mounted there) is listed without its node, which
     * the kernel then looks up itself; so is one the kernel already holds in a directory the
     * source watch covers ({@link SourceNodes#holds}), whose cached entry stays exact. The library counts the lookups of the entries the batch takes, and takes them back if the kernel does not take it.
     */
    void readPlus(long fh, long offset, SourceNode dir, SourceNodes table, DirReply reply) {
        DirStream d = open.get((int) fh);
        if (d == null) {
            reply.error(Errno.EBADF);
            return;
        }
        Scratch s = Scratch.worker();
        boolean listed = false;
        boolean watched = dir.watched;
        synchronized (d) {
            if (!seek(d, offset, reply)) return;
            Dirents dirents = s.dirents();
            batch:
            while (true) {
                long n = dirents.read(d.fd);
                if (n < 0) {
                    if (!listed) {
                        reply.error((int) -n);
                        return;
                    }
                    break; // what was listed so far; the next call meets the error again
                }
                if (n == 0) break;
                while (dirents.next()) {
                    byte[] name = dirents.name();
                    boolean full;
                    long id = 0;
                    if (dirents.isDotOrDotDot()) {
                        full = reply.add(name, dirents.ino(), Posix.S_IFDIR, dirents.offset());
                    } else if (watched && table.holds(dirents.ino(), dir, name)) {
                        // The kernel has this entry, and the watch keeps it exact: listed by name
                        // alone (node id 0), which leaves the kernel's entry as it is, without a
                        // look at the source. A guess that is wrong costs the kernel a lookup.
                        full = reply.add(name, dirents.ino(), dirents.type() << 12, dirents.offset());
                    } else {
                        Stat st = reply.attributes();
                        int fd = Libc.openat(d.fd, Scratch.cString(s.path, name), SourceNodes.PATH_FLAGS, 0);
                        id = fd < 0 ? 0 : Math.max(0, table.nodeOf(s, fd, true, dir, new BytesName(name), st));
                        full = id == 0 ? reply.add(name, dirents.ino(), dirents.type() << 12, dirents.offset())
                                : reply.add(name, Inode.of(id), table.timeouts(dir, id, st), dirents.offset());
                    }
                    if (full) {
                        d.position = -1;
                        break batch;
                    }
                    listed = true;
                    d.position = dirents.offset();
                }
            }
        }
        reply.send(); // the library counts the entries the batch took, and takes them back if it is not
    }

    /** Moves {@code d} to {@code offset} unless it stands there; false, having answered the error, if it cannot. Under {@code d}'s monitor. */
    private static boolean seek(DirStream d, long offset, Reply reply) {
        if (d.position == offset) return true;
        long rc = Libc.lseek(d.fd, offset, Posix.SEEK_SET);
        if (rc < 0) {
            reply.error((int) -rc);
            return false;
        }
        d.position = offset;
        return true;
    }

    /** A name of an entry read from the source, as the inode API's names are. */
    private record BytesName(byte[] bytes) implements Name {
        @Override
        public int length() {
            return bytes.length;
        }

        @Override
        public byte byteAt(int index) {
            return bytes[index];
        }

        @Override
        public boolean is(byte[] other) {
            return Arrays.equals(bytes, other);
        }

        @Override
        public byte[] bytes() {
            return bytes.clone();
        }

        @Override
        public String toString() {
            return FileNames.fromBytes(bytes);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof BytesName b && Arrays.equals(bytes, b.bytes);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(bytes);
        }
    }

    /** Answers a readdir of handle {@code fh} from {@code offset}: as many entries as the reply takes. */
    void read(long fh, long offset, DirReply reply) {
        DirStream d = open.get((int) fh);
        if (d == null) {
            reply.error(Errno.EBADF);
            return;
        }
        Scratch s = Scratch.worker();
        synchronized (d) {
            if (!seek(d, offset, reply)) return;
            Dirents dirents = s.dirents();
            while (true) {
                long n = dirents.read(d.fd);
                if (n < 0) {
                    reply.error((int) -n);
                    return;
                }
                if (n == 0) {
                    reply.send();
                    return;
                }
                while (dirents.next()) {
                    if (reply.add(dirents.name(), dirents.ino(), dirents.type(), dirents.offset())) { // full
                        d.position = -1;
                        reply.send();
                        return;
                    }
                    d.position = dirents.offset();
                }
            }
        }
    }
}
