package dev.fusepanama.bench;

import dev.fusepanama.DirFiller;
import dev.fusepanama.FileInfo;
import dev.fusepanama.ForwardingFileSystem;
import dev.fusepanama.FuseFileSystem;
import dev.fusepanama.Stat;
import dev.fusepanama.Timespec;
import dev.fusepanama.bench.AllocationStats.Op;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * {@link PanamaBenchFs} with its heap allocation per upcall counted ({@link AllocationStats}):
 * what it implements is what is registered (a forwarding filesystem), each call passed through and
 * charged while counting is on.
 */
final class CountingFileSystem extends ForwardingFileSystem {
    private final AllocationStats stats;
    private final ThreadLocal<CountingFiller> fillers = ThreadLocal.withInitial(CountingFiller::new);

    CountingFileSystem(FuseFileSystem fs, AllocationStats stats) {
        super(fs);
        this.stats = stats;
    }

    /** Counts the entries a readdir added; one per worker thread, pointed at each call's filler. */
    private static final class CountingFiller implements DirFiller {
        DirFiller target;
        long added;

        @Override public boolean add(String name, long nextOffset) { return counted(target.add(name, nextOffset)); }
        @Override public boolean add(String name, long nextOffset, Stat attributes) { return counted(target.add(name, nextOffset, attributes)); }
        @Override public Stat attributes() { return target.attributes(); }

        private boolean counted(boolean full) {
            if (!full) added++;
            return full;
        }
    }

    @Override
    public int getattr(String path, Stat st, FileInfo fi) throws IOException {
        if (!stats.counting()) return delegate.getattr(path, st, fi);
        long t = AllocationStats.allocated();
        try { return delegate.getattr(path, st, fi); } finally { stats.charge(Op.GETATTR, t); }
    }

    @Override
    public int readdir(String path, DirFiller filler, long offset, FileInfo fi, int flags) throws IOException {
        if (!stats.counting()) return delegate.readdir(path, filler, offset, fi, flags);
        long t = AllocationStats.allocated();
        CountingFiller cf = fillers.get();
        cf.target = filler;
        cf.added = 0;
        try {
            return delegate.readdir(path, cf, offset, fi, flags);
        } finally {
            stats.listed(cf.added);
            cf.target = null;
            stats.charge(Op.READDIR, t);
        }
    }

    @Override
    public int open(String path, FileInfo fi) throws IOException {
        if (!stats.counting()) return delegate.open(path, fi);
        long t = AllocationStats.allocated();
        try { return delegate.open(path, fi); } finally { stats.charge(Op.OPEN, t); }
    }

    @Override
    public int read(String path, ByteBuffer buf, long offset, FileInfo fi) throws IOException {
        if (!stats.counting()) return delegate.read(path, buf, offset, fi);
        long t = AllocationStats.allocated();
        try { return delegate.read(path, buf, offset, fi); } finally { stats.charge(Op.READ, t); }
    }

    @Override
    public int create(String path, int mode, FileInfo fi) throws IOException {
        if (!stats.counting()) return delegate.create(path, mode, fi);
        long t = AllocationStats.allocated();
        try { return delegate.create(path, mode, fi); } finally { stats.charge(Op.CREATE, t); }
    }

    @Override
    public int write(String path, ByteBuffer buf, long offset, FileInfo fi) throws IOException {
        if (!stats.counting()) return delegate.write(path, buf, offset, fi);
        long t = AllocationStats.allocated();
        try { return delegate.write(path, buf, offset, fi); } finally { stats.charge(Op.WRITE, t); }
    }

    @Override
    public int truncate(String path, long size, FileInfo fi) throws IOException {
        if (!stats.counting()) return delegate.truncate(path, size, fi);
        long t = AllocationStats.allocated();
        try { return delegate.truncate(path, size, fi); } finally { stats.charge(Op.TRUNCATE, t); }
    }

    @Override
    public int unlink(String path) throws IOException {
        if (!stats.counting()) return delegate.unlink(path);
        long t = AllocationStats.allocated();
        try { return delegate.unlink(path); } finally { stats.charge(Op.UNLINK, t); }
    }

    @Override
    public int rename(String from, String to, int flags) throws IOException {
        if (!stats.counting()) return delegate.rename(from, to, flags);
        long t = AllocationStats.allocated();
        try { return delegate.rename(from, to, flags); } finally { stats.charge(Op.RENAME, t); }
    }

    @Override
    public int utimens(String path, Timespec atime, Timespec mtime, FileInfo fi) throws IOException {
        if (!stats.counting()) return delegate.utimens(path, atime, mtime, fi);
        long t = AllocationStats.allocated();
        try { return delegate.utimens(path, atime, mtime, fi); } finally { stats.charge(Op.UTIMENS, t); }
    }
}
