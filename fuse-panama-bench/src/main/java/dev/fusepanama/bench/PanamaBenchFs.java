package dev.fusepanama.bench;

import dev.fusepanama.DirFiller;
import dev.fusepanama.Errno;
import dev.fusepanama.FileInfo;
import dev.fusepanama.Fuse;
import dev.fusepanama.FuseFileSystem;
import dev.fusepanama.FuseMount;
import dev.fusepanama.KernelSettings;
import dev.fusepanama.MountOptions;
import dev.fusepanama.Posix;
import dev.fusepanama.Stat;
import dev.fusepanama.Timespec;
import dev.fusepanama.bench.BenchTree.Kind;
import dev.fusepanama.examples.Foreground;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import org.slf4j.LoggerFactory;

/**
 * The bench tree on fuse-panama. Usage: {@code PanamaBenchFs [--defaults] [--stats SOCKET] MOUNTPOINT} (foreground;
 * SIGTERM or fusermount3 -u ends it). Without a flag it has the C filesystem's settings and logic;
 * {@code --defaults} is the tree as fuse-panama would serve it: the library's default options
 * (keeping the tree's timeouts of 0) and {@code /big} listed in offset mode. {@code --stats SOCKET} counts heap
 * allocation per upcall (see {@link AllocationStats}).
 */
public final class PanamaBenchFs implements FuseFileSystem {
    private final BenchTree.Scratch scratch = new BenchTree.Scratch();
    private final boolean offsets;
    private final KernelSettings settings;

    /** @param offsets list /big in offset mode (see {@link DirFiller}) instead of all at once */
    PanamaBenchFs(boolean offsets) {
        this(offsets, settings(false));
    }

    /**
     * @param offsets list /big in offset mode (see {@link DirFiller}) instead of all at once
     * @param settings what the kernel may cache ({@link #settings})
     */
    PanamaBenchFs(boolean offsets, KernelSettings settings) {
        this.offsets = offsets;
        this.settings = settings;
    }

    @Override
    public KernelSettings kernelSettings() {
        return settings;
    }

    @Override
    public int getattr(String path, Stat st, FileInfo fi) {
        switch (BenchTree.kind(path)) {
            case DIR -> st.setMode(Posix.S_IFDIR | 0755).setNlink(2);
            case SCRATCH_DIR -> st.setMode(Posix.S_IFDIR | 0777).setNlink(2);
            case FILE, DATA -> st.setMode(Posix.S_IFREG | 0444).setNlink(1).setSize(BenchTree.size(BenchTree.kind(path)));
            case SCRATCH -> {
                Long size = scratch.sizes.get(path.substring(3));
                if (size == null) return -Errno.ENOENT;
                st.setMode(Posix.S_IFREG | 0644).setNlink(1).setSize(size);
            }
            case NONE -> { return -Errno.ENOENT; }
        }
        return 0;
    }

    @Override
    public int readdir(String path, DirFiller filler, long offset, FileInfo fi, int flags) {
        // Offsets pay for themselves on a large directory; a small one fits one reply either way,
        // and offset 0 then saves the second call that returns the end of the listing.
        if (offsets && path.equals("/big")) return readdirWithOffsets(path, filler, offset);
        filler.add(".");
        filler.add("..");
        String[] names = switch (path) {
            case "/" -> BenchTree.ROOT;
            case "/small" -> BenchTree.SMALL_NAMES;
            case "/big" -> BenchTree.BIG_NAMES;
            case "/w" -> scratch.sizes.keySet().toArray(String[]::new);
            default -> null;
        };
        if (names == null) return -Errno.ENOENT;
        for (String n : names) filler.add(n);
        return 0;
    }

    /**
     * A fixed directory in offset mode: entry i (0 ".", 1 "..", then the names) carries the offset
     * i + 1 of the entry after it, so each kernel request is answered straight into its reply
     * buffer instead of libfuse collecting the whole listing first.
     */
    private static int readdirWithOffsets(String path, DirFiller filler, long offset) {
        String[] names = BenchTree.BIG_NAMES;
        if (offset == 0 && filler.add(".", 1)) return 0;
        if (offset <= 1 && filler.add("..", 2)) return 0;
        if (offset - 2 >= names.length) return 0; // the end, or an offset seekdir made up
        for (int i = (int) Math.max(0, offset - 2); i < names.length; i++) {
            if (filler.add(names[i], i + 3)) return 0;
        }
        return 0;
    }

    @Override
    public int open(String path, FileInfo fi) {
        Kind k = BenchTree.kind(path);
        if (k == Kind.SCRATCH) {
            if (!scratch.sizes.containsKey(path.substring(3))) return -Errno.ENOENT;
            if ((fi.flags() & Posix.O_TRUNC) != 0) scratch.sizes.put(path.substring(3), 0L);
            return 0;
        }
        return k == Kind.FILE || k == Kind.DATA ? 0 : -Errno.ENOENT;
    }

    @Override
    public int read(String path, ByteBuffer buf, long offset, FileInfo fi) {
        Kind k = BenchTree.kind(path);
        if (k == Kind.SCRATCH) return 0;
        if (k != Kind.FILE && k != Kind.DATA) return -Errno.ENOENT;
        long total = BenchTree.size(k);
        if (offset >= total) return 0;
        int n = (int) Math.min(buf.remaining(), total - offset);
        for (int done = 0; done < n; ) {
            int chunk = Math.min(n - done, 1 << 20);
            buf.put(BenchTree.PATTERN, (int) ((offset + done) % 251), chunk);
            done += chunk;
        }
        return n;
    }

    @Override
    public int create(String path, int mode, FileInfo fi) {
        if (BenchTree.kind(path) != Kind.SCRATCH) return -Errno.EACCES;
        scratch.sizes.put(path.substring(3), 0L);
        return 0;
    }

    @Override
    public int write(String path, ByteBuffer buf, long offset, FileInfo fi) {
        if (BenchTree.kind(path) != Kind.SCRATCH) return -Errno.EACCES;
        long end = offset + buf.remaining();
        Long old = scratch.sizes.computeIfPresent(path.substring(3), (k, size) -> Math.max(size, end));
        return old == null ? -Errno.ENOENT : buf.remaining();
    }

    @Override
    public int truncate(String path, long size, FileInfo fi) {
        if (BenchTree.kind(path) != Kind.SCRATCH) return -Errno.EACCES;
        return scratch.sizes.computeIfPresent(path.substring(3), (k, s) -> size) == null ? -Errno.ENOENT : 0;
    }

    @Override
    public int unlink(String path) {
        if (BenchTree.kind(path) != Kind.SCRATCH) return -Errno.EACCES;
        return scratch.sizes.remove(path.substring(3)) == null ? -Errno.ENOENT : 0;
    }

    @Override
    public int rename(String from, String to, int flags) {
        if (flags != 0) return -Errno.EINVAL;
        if (BenchTree.kind(from) != Kind.SCRATCH || BenchTree.kind(to) != Kind.SCRATCH) return -Errno.EACCES;
        Long size = scratch.sizes.remove(from.substring(3));
        if (size == null) return -Errno.ENOENT;
        scratch.sizes.put(to.substring(3), size);
        return 0;
    }

    @Override
    public int utimens(String path, Timespec atime, Timespec mtime, FileInfo fi) {
        Kind k = BenchTree.kind(path);
        return k == Kind.NONE || (k == Kind.SCRATCH && !scratch.sizes.containsKey(path.substring(3))) ? -Errno.ENOENT : 0;
    }

    /**
     * The tree's kernel settings: nothing cached by the kernel (timeouts 0), as the C bench
     * filesystem asks; {@code asC} adds what fuse-panama leaves off and libfuse 3 turns on
     * ({@code auto_inval_data}), so that the settings are those of the C filesystem on libfuse 3.
     */
    static KernelSettings settings(boolean asC) {
        return KernelSettings.builder().attrTimeout(0).entryTimeout(0).negativeEntries(0).autoInvalData(asC).build();
    }

    /** The tree's mount options on fuse-panama's defaults; {@code uring} asks for io_uring ({@code --suite uring}). */
    static MountOptions options(boolean uring) {
        return MountOptions.builder().fsName("benchfs").ioUring(uring).build();
    }

    public static void main(String[] args) throws Exception {
        boolean defaults = false;
        boolean uring = false;
        Path stats = null;
        int i = 0;
        for (; i < args.length - 1; i++) {
            if (args[i].equals("--defaults")) {
                defaults = true;
            } else if (args[i].equals("--io-uring")) {
                uring = true;
            } else if (args[i].equals("--stats")) {
                stats = Path.of(args[++i]);
            } else {
                break;
            }
        }
        if (i != args.length - 1) {
            System.err.println("usage: PanamaBenchFs [--defaults] [--io-uring] [--stats SOCKET] MOUNTPOINT");
            System.exit(2);
        }
        FuseFileSystem fs = new PanamaBenchFs(defaults, settings(!defaults));
        if (stats != null) {
            AllocationStats counter = new AllocationStats();
            counter.serve(stats);
            fs = new CountingFileSystem(fs, counter);
        }
        FuseMount mount = Fuse.mount(fs, Path.of(args[i]), options(uring));
        LoggerFactory.getLogger("benchfs").info("{}", mount.describe());
        System.exit(Foreground.serve(mount, LoggerFactory.getLogger("benchfs")));
    }
}
