package dev.fusepanama.examples.mirror;

import dev.fusepanama.Errno;
import dev.fusepanama.Posix;
import dev.fusepanama.inode.DirReply;
import dev.fusepanama.libc.Dirents;
import dev.fusepanama.libc.Libc;
import dev.fusepanama.libc.Scratch;
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

    /** Answers a readdir of handle {@code fh} from {@code offset}: as many entries as the reply takes. */
    void read(long fh, long offset, DirReply reply) {
        DirStream d = open.get((int) fh);
        if (d == null) {
            reply.error(Errno.EBADF);
            return;
        }
        Scratch s = Scratch.worker();
        synchronized (d) {
            if (d.position != offset) {
                long rc = Libc.lseek(d.fd, offset, Posix.SEEK_SET);
                if (rc < 0) {
                    reply.error((int) -rc);
                    return;
                }
                d.position = offset;
            }
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
