package dev.fusepanama.bench;

import dev.fusepanama.bench.BenchTree.Kind;
import java.nio.file.Paths;
import jnr.ffi.Pointer;
import jnr.ffi.types.mode_t;
import jnr.ffi.types.off_t;
import jnr.ffi.types.size_t;
import ru.serce.jnrfuse.ErrorCodes;
import ru.serce.jnrfuse.FuseFillDir;
import ru.serce.jnrfuse.FuseStubFS;
import ru.serce.jnrfuse.struct.FileStat;
import ru.serce.jnrfuse.struct.FuseFileInfo;
import ru.serce.jnrfuse.struct.Timespec;

/** The bench tree on jnr-fuse 0.5.7 (over libfuse 2), same logic and options. Usage: JnrBenchFs MOUNTPOINT. */
public final class JnrBenchFs extends FuseStubFS {
    private static final int O_TRUNC = 01000;
    private final BenchTree.Scratch scratch = new BenchTree.Scratch();

    @Override
    public int getattr(String path, FileStat st) {
        switch (BenchTree.kind(path)) {
            case DIR -> { st.st_mode.set(FileStat.S_IFDIR | 0755); st.st_nlink.set(2); }
            case SCRATCH_DIR -> { st.st_mode.set(FileStat.S_IFDIR | 0777); st.st_nlink.set(2); }
            case FILE, DATA -> { st.st_mode.set(FileStat.S_IFREG | 0444); st.st_nlink.set(1); st.st_size.set(BenchTree.size(BenchTree.kind(path))); }
            case SCRATCH -> {
                Long size = scratch.sizes.get(path.substring(3));
                if (size == null) return -ErrorCodes.ENOENT();
                st.st_mode.set(FileStat.S_IFREG | 0644);
                st.st_nlink.set(1);
                st.st_size.set(size);
            }
            case NONE -> { return -ErrorCodes.ENOENT(); }
        }
        return 0;
    }

    @Override
    public int readdir(String path, Pointer buf, FuseFillDir filler, @off_t long offset, FuseFileInfo fi) {
        String[] names = switch (path) {
            case "/" -> BenchTree.ROOT;
            case "/small" -> BenchTree.SMALL_NAMES;
            case "/big" -> BenchTree.BIG_NAMES;
            case "/w" -> scratch.sizes.keySet().toArray(String[]::new);
            default -> null;
        };
        if (names == null) return -ErrorCodes.ENOENT();
        filler.apply(buf, ".", null, 0);
        filler.apply(buf, "..", null, 0);
        for (String n : names) filler.apply(buf, n, null, 0);
        return 0;
    }

    @Override
    public int open(String path, FuseFileInfo fi) {
        Kind k = BenchTree.kind(path);
        if (k == Kind.SCRATCH) {
            if (!scratch.sizes.containsKey(path.substring(3))) return -ErrorCodes.ENOENT();
            if ((fi.flags.get() & O_TRUNC) != 0) scratch.sizes.put(path.substring(3), 0L);
            return 0;
        }
        return k == Kind.FILE || k == Kind.DATA ? 0 : -ErrorCodes.ENOENT();
    }

    @Override
    public int read(String path, Pointer buf, @size_t long size, @off_t long offset, FuseFileInfo fi) {
        Kind k = BenchTree.kind(path);
        if (k == Kind.SCRATCH) return 0;
        if (k != Kind.FILE && k != Kind.DATA) return -ErrorCodes.ENOENT();
        long total = BenchTree.size(k);
        if (offset >= total) return 0;
        int n = (int) Math.min(size, total - offset);
        for (int done = 0; done < n; ) {
            int chunk = Math.min(n - done, 1 << 20);
            buf.put(done, BenchTree.PATTERN, (int) ((offset + done) % 251), chunk);
            done += chunk;
        }
        return n;
    }

    @Override
    public int create(String path, @mode_t long mode, FuseFileInfo fi) {
        if (BenchTree.kind(path) != Kind.SCRATCH) return -ErrorCodes.EACCES();
        scratch.sizes.put(path.substring(3), 0L);
        return 0;
    }

    @Override
    public int write(String path, Pointer buf, @size_t long size, @off_t long offset, FuseFileInfo fi) {
        if (BenchTree.kind(path) != Kind.SCRATCH) return -ErrorCodes.EACCES();
        long end = offset + size;
        Long old = scratch.sizes.computeIfPresent(path.substring(3), (k, s) -> Math.max(s, end));
        return old == null ? -ErrorCodes.ENOENT() : (int) size;
    }

    @Override
    public int truncate(String path, @off_t long size) {
        if (BenchTree.kind(path) != Kind.SCRATCH) return -ErrorCodes.EACCES();
        return scratch.sizes.computeIfPresent(path.substring(3), (k, s) -> size) == null ? -ErrorCodes.ENOENT() : 0;
    }

    @Override
    public int unlink(String path) {
        if (BenchTree.kind(path) != Kind.SCRATCH) return -ErrorCodes.EACCES();
        return scratch.sizes.remove(path.substring(3)) == null ? -ErrorCodes.ENOENT() : 0;
    }

    @Override
    public int rename(String from, String to) {
        if (BenchTree.kind(from) != Kind.SCRATCH || BenchTree.kind(to) != Kind.SCRATCH) return -ErrorCodes.EACCES();
        Long size = scratch.sizes.remove(from.substring(3));
        if (size == null) return -ErrorCodes.ENOENT();
        scratch.sizes.put(to.substring(3), size);
        return 0;
    }

    @Override
    public int utimens(String path, Timespec[] timespec) {
        Kind k = BenchTree.kind(path);
        return k == Kind.NONE || (k == Kind.SCRATCH && !scratch.sizes.containsKey(path.substring(3))) ? -ErrorCodes.ENOENT() : 0;
    }

    public static void main(String[] args) {
        if (args.length != 1) {
            System.err.println("usage: JnrBenchFs MOUNTPOINT");
            System.exit(2);
        }
        JnrBenchFs fs = new JnrBenchFs();
        Runtime.getRuntime().addShutdownHook(new Thread(fs::umount));
        fs.mount(Paths.get(args[0]), true, false,
                new String[] {"-o", "attr_timeout=0,entry_timeout=0,negative_timeout=0,fsname=benchfs"});
    }
}
