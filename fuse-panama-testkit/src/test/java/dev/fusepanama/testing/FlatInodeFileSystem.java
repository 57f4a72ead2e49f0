package dev.fusepanama.testing;

import dev.fusepanama.Errno;
import dev.fusepanama.Posix;
import dev.fusepanama.inode.AttrReply;
import dev.fusepanama.inode.DataReply;
import dev.fusepanama.inode.DirReply;
import dev.fusepanama.inode.EntryReply;
import dev.fusepanama.inode.Inode;
import dev.fusepanama.inode.Timeouts;
import dev.fusepanama.inode.InodeFileSystem;
import dev.fusepanama.inode.Name;
import dev.fusepanama.inode.OpenReply;
import dev.fusepanama.inode.Request;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A root directory of files whose names and contents the test changes behind the kernel's
 * back ({@link #put}, {@link #remove}), served with every cache on: names and attributes for
 * an hour, data kept across opens. What the kernel shows then changes only when told.
 * Counts the requests that reach it.
 */
public class FlatInodeFileSystem implements InodeFileSystem {
    public static final double HOUR = 3600;
    private static final Timeouts CACHE = Timeouts.NONE.withAttributes(HOUR).withEntries(HOUR);

    private record File(long ino, byte[] data) {}

    private final Map<String, File> files = new ConcurrentHashMap<>();
    private final AtomicLong inodes = new AtomicLong(ROOT + 1);
    public final AtomicInteger lookups = new AtomicInteger();
    public final AtomicInteger reads = new AtomicInteger();
    public final AtomicInteger getattrs = new AtomicInteger();

    /** Creates or replaces {@code name} (keeping its inode); returns the inode number. */
    public long put(String name, String content) {
        File old = files.get(name);
        long ino = old == null ? inodes.getAndIncrement() : old.ino();
        files.put(name, new File(ino, content.getBytes(StandardCharsets.UTF_8)));
        return ino;
    }

    public void remove(String name) {
        files.remove(name);
    }

    public long ino(String name) {
        return files.get(name).ino();
    }

    private File byIno(long ino) {
        for (File f : files.values()) {
            if (f.ino() == ino) return f;
        }
        return null;
    }

    @Override
    public void lookup(Request request, long parent, Name name, EntryReply reply) throws java.io.IOException {
        lookups.incrementAndGet();
        File f = parent == ROOT ? files.get(name.toString()) : null;
        if (f == null) {
            reply.error(Errno.ENOENT);
            return;
        }
        reply.attributes().setMode(Posix.S_IFREG | 0644).setNlink(1).setSize(f.data().length);
        reply.entry(Inode.of(f.ino()), CACHE);
    }

    @Override
    public void getattr(Request request, long ino, long fh, AttrReply reply) {
        getattrs.incrementAndGet();
        if (ino == ROOT) {
            reply.attributes().setIno(ROOT).setMode(Posix.S_IFDIR | 0755).setNlink(2);
        } else {
            File f = byIno(ino);
            if (f == null) {
                reply.error(Errno.ENOENT);
                return;
            }
            reply.attributes().setIno(ino).setMode(Posix.S_IFREG | 0644).setNlink(1).setSize(f.data().length);
        }
        reply.send(CACHE);
    }

    @Override
    public void open(Request request, long ino, int flags, OpenReply reply) {
        reply.open(ino, OpenReply.KEEP_CACHE);
    }

    @Override
    public void read(Request request, long ino, long fh, long size, long offset, DataReply reply) {
        reads.incrementAndGet();
        File f = byIno(ino);
        byte[] d = f == null ? new byte[0] : f.data();
        int from = (int) Math.min(offset, d.length);
        reply.data(d, from, (int) Math.min(size, d.length - from));
    }

    @Override
    public void opendir(Request request, long ino, int flags, OpenReply reply) {
        reply.open(0, 0);
    }

    @Override
    public void readdir(Request request, long ino, long fh, long size, long offset, DirReply reply) {
        long i = 0;
        for (Map.Entry<String, File> e : files.entrySet()) {
            if (++i <= offset) continue;
            if (reply.add(e.getKey().getBytes(StandardCharsets.UTF_8), e.getValue().ino(), Posix.S_IFREG, i)) break;
        }
        reply.send();
    }
}
