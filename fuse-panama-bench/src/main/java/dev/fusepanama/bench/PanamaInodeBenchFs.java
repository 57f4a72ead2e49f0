package dev.fusepanama.bench;

import static dev.fusepanama.Errno.EACCES;
import static dev.fusepanama.Errno.EEXIST;
import static dev.fusepanama.Errno.EINVAL;
import static dev.fusepanama.Errno.EISDIR;
import static dev.fusepanama.Errno.ENAMETOOLONG;
import static dev.fusepanama.Errno.ENOENT;
import static dev.fusepanama.Errno.ENOSPC;
import static dev.fusepanama.Errno.ENOSYS;
import static dev.fusepanama.Errno.ENOTDIR;
import static dev.fusepanama.Posix.S_IFDIR;
import static dev.fusepanama.Posix.S_IFREG;

import dev.fusepanama.Fuse;
import dev.fusepanama.KernelSettings;
import dev.fusepanama.MountOptions;
import dev.fusepanama.Posix;
import dev.fusepanama.Stat;
import dev.fusepanama.examples.Foreground;
import dev.fusepanama.inode.AttrReply;
import dev.fusepanama.inode.CreateReply;
import dev.fusepanama.inode.DataReply;
import dev.fusepanama.inode.DirReply;
import dev.fusepanama.inode.EmptyReply;
import dev.fusepanama.inode.EntryReply;
import dev.fusepanama.inode.Inode;
import dev.fusepanama.inode.InodeFileSystem;
import dev.fusepanama.inode.Timeouts;
import dev.fusepanama.inode.InodeMount;
import dev.fusepanama.inode.Name;
import dev.fusepanama.inode.OpenReply;
import dev.fusepanama.inode.Request;
import dev.fusepanama.inode.WriteReply;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.slf4j.LoggerFactory;

/**
 * The bench tree on fuse-panama's inode API, with the logic of native/benchfs_ll.c (its C
 * reference on libfuse's low-level API) line for line: fixed inode numbers (1 /, 2 /small, 3 /big,
 * 4 /data.bin, 5 /w, 6.. /small's files, 14.. /big's, 10014.. a table of /w's files), timeouts 0
 * in every reply, readdirplus with each entry's attributes, reads answered straight from a direct
 * buffer holding the pattern. Every answer goes through its reply without throwing, and no hot
 * path allocates: names are compared and parsed in the request's memory.
 *
 * <p>Usage: {@code PanamaInodeBenchFs [--no-auto-inval-data] [--stats SOCKET] MOUNTPOINT}
 * (foreground; SIGTERM or fusermount3 -u ends it). As the C filesystem, it keeps libfuse's
 * default capabilities (so {@code auto_inval_data}, which fuse-panama leaves off by default)
 * unless the flag turns that one off. {@code --stats SOCKET} counts heap allocation per upcall
 * ({@link AllocationStats}).
 */
public final class PanamaInodeBenchFs implements InodeFileSystem {
    static final long SMALL_DIR = 2;
    static final long BIG_DIR = 3;
    static final long DATA = 4;
    static final long SCRATCH_DIR = 5;
    static final long FIRST_SMALL = 6;
    static final long FIRST_BIG = FIRST_SMALL + BenchTree.SMALL;
    static final long FIRST_SCRATCH = FIRST_BIG + BenchTree.BIG;
    private static final int NAME_MAX = 255;
    /** The kernel reads at most max_pages (256 pages, 1 MiB with libfuse 3's max_write) at a time. */
    private static final int MAX_READ = 1 << 20;

    private static final byte[][] ROOT_NAMES = ascii(BenchTree.ROOT);
    private static final byte[][] SMALL_NAMES = ascii(BenchTree.SMALL_NAMES);
    private static final byte[][] BIG_NAMES = ascii(BenchTree.BIG_NAMES);
    private static final byte[] DOT = {'.'};
    private static final byte[] DOT_DOT = {'.', '.'};
    private static final byte[] FILE_PREFIX = {'f', 'i', 'l', 'e', '-'};
    private static final byte[] NOTHING = {};

    /** {@link BenchTree#PATTERN} in native memory, which a read's reply is sent from without a copy. */
    private static final ByteBuffer PATTERN = ByteBuffer.allocateDirect(BenchTree.PATTERN.length).put(BenchTree.PATTERN).flip();

    /** Each worker thread's view of {@link #PATTERN}, positioned for each read. */
    private final ThreadLocal<ByteBuffer> patternViews = ThreadLocal.withInitial(PATTERN::duplicate);
    private final Scratch scratch = new Scratch();

    /** The fixed tree's inodes, by number (generation 0: never reused). */
    private static final Inode[] TREE = new Inode[(int) FIRST_SCRATCH];

    static {
        for (int i = 1; i < TREE.length; i++) TREE[i] = Inode.of(i);
    }

    private record SlotInode(long nodeId, long generation) implements Inode {}

    private static byte[][] ascii(String[] names) {
        byte[][] b = new byte[names.length][];
        for (int i = 0; i < names.length; i++) b[i] = names[i].getBytes(StandardCharsets.US_ASCII);
        return b;
    }

    /**
     * The files of /w, one per slot; data is discarded, the size kept. A slot is freed once its
     * name is gone and the kernel has forgotten it, and gets a new generation when reused. Every
     * method is called holding the table's monitor.
     */
    private static final class Scratch {
        static final int MAX = 4096;
        final byte[][] name = new byte[MAX][];
        final long[] size = new long[MAX];
        final long[] generation = new long[MAX];
        /** The slot's inode as the kernel knows it: its number and the generation it has now. */
        final Inode[] inode = new Inode[MAX];
        /** Entries the kernel was sent, less what it forgot. */
        final long[] lookups = new long[MAX];
        /** Its name is in /w. */
        final boolean[] linked = new boolean[MAX];
        /** Linked, or still known to the kernel. */
        final boolean[] used = new boolean[MAX];
        /** One past the highest used slot. */
        int end;

        int find(Name n) {
            for (int s = 0; s < end; s++) {
                if (linked[s] && n.is(name[s])) return s;
            }
            return -1;
        }

        /** The lowest free slot, now used with a new generation; -1 if the table is full. */
        int add(Name n) {
            for (int s = 0; s < MAX; s++) {
                if (used[s]) continue;
                used[s] = true;
                linked[s] = true;
                size[s] = 0;
                lookups[s] = 0;
                generation[s]++;
                inode[s] = new SlotInode(FIRST_SCRATCH + s, generation[s]);
                name[s] = n.bytes();
                if (s >= end) end = s + 1;
                return s;
            }
            return -1;
        }

        void freeIfUnused(int s) {
            if (linked[s] || lookups[s] > 0) return;
            used[s] = false;
            name[s] = null;
            while (end > 0 && !used[end - 1]) end--;
        }

        void forget(int s, long n) {
            lookups[s] -= Math.min(n, lookups[s]);
            freeIfUnused(s);
        }

        void fill(int s, Stat st) {
            st.setIno(FIRST_SCRATCH + s).setMode(S_IFREG | 0644).setNlink(linked[s] ? 1 : 0).setSize(size[s]);
        }
    }

    /** The slot of a /w file's inode, used or not; -1 for any other inode. */
    private static int scratchSlot(long ino) {
        return ino >= FIRST_SCRATCH && ino < FIRST_SCRATCH + Scratch.MAX ? (int) (ino - FIRST_SCRATCH) : -1;
    }

    private static boolean treeFile(long ino) {
        return ino >= FIRST_SMALL && ino < FIRST_SCRATCH;
    }

    private static int typeOf(long ino) {
        return ino <= SCRATCH_DIR && ino != DATA ? S_IFDIR : S_IFREG;
    }

    /** Fills {@code st} (zeroed); false for an inode that is not (or no longer) a file of the tree. */
    private boolean fill(long ino, Stat st) {
        st.setIno(ino);
        if (ino == ROOT || ino == SMALL_DIR || ino == BIG_DIR) {
            st.setMode(S_IFDIR | 0755).setNlink(2);
            return true;
        }
        if (ino == SCRATCH_DIR) {
            st.setMode(S_IFDIR | 0777).setNlink(2);
            return true;
        }
        if (ino == DATA || treeFile(ino)) {
            st.setMode(S_IFREG | 0444).setNlink(1).setSize(ino == DATA ? BenchTree.DATA_SIZE : BenchTree.FILE_SIZE);
            return true;
        }
        int s = scratchSlot(ino);
        if (s < 0) return false;
        synchronized (scratch) {
            if (!scratch.used[s]) return false;
            scratch.fill(s, st);
            return true;
        }
    }

    // ---- lookups -----------------------------------------------------------------------------

    /** The index of "file-" followed by exactly {@code digits} digits below {@code count}; -1 for any other name. */
    private static int treeIndex(Name name, int digits, int count) {
        if (name.length() != FILE_PREFIX.length + digits) return -1;
        for (int i = 0; i < FILE_PREFIX.length; i++) {
            if (name.byteAt(i) != FILE_PREFIX[i]) return -1;
        }
        int v = 0;
        for (int i = FILE_PREFIX.length; i < name.length(); i++) {
            byte c = name.byteAt(i);
            if (c < '0' || c > '9') return -1;
            v = v * 10 + (c - '0');
        }
        return v < count ? v : -1;
    }

    @Override
    public void lookup(Request request, long parent, Name name, EntryReply reply) {
        if (name.length() > NAME_MAX) {
            reply.error(ENAMETOOLONG);
            return;
        }
        long ino = 0;
        int i;
        if (parent == ROOT) {
            for (int k = 0; k < ROOT_NAMES.length; k++) {
                if (name.is(ROOT_NAMES[k])) ino = SMALL_DIR + k;
            }
        } else if (parent == SMALL_DIR) {
            if ((i = treeIndex(name, 1, BenchTree.SMALL)) >= 0) ino = FIRST_SMALL + i;
        } else if (parent == BIG_DIR) {
            if ((i = treeIndex(name, 5, BenchTree.BIG)) >= 0) ino = FIRST_BIG + i;
        } else if (parent == SCRATCH_DIR) {
            int s;
            Inode scratchInode = null;
            synchronized (scratch) {
                s = scratch.find(name);
                if (s >= 0) {
                    scratch.lookups[s]++;
                    scratch.fill(s, reply.attributes());
                    scratchInode = scratch.inode[s];
                }
            }
            if (s < 0) {
                reply.error(ENOENT);
                return;
            }
            if (!reply.entry(scratchInode, Timeouts.NONE)) { // the caller gave up: the kernel never counted it
                synchronized (scratch) {
                    scratch.forget(s, 1);
                }
            }
            return;
        }
        if (ino == 0) {
            reply.error(ENOENT);
            return;
        }
        fill(ino, reply.attributes());
        reply.entry(TREE[(int) ino], Timeouts.NONE);
    }

    @Override
    public void forget(long ino, long lookups) {
        int s = scratchSlot(ino);
        if (s >= 0) {
            synchronized (scratch) {
                scratch.forget(s, lookups);
            }
        }
    }

    @Override
    public void getattr(Request request, long ino, long fh, AttrReply reply) {
        if (fill(ino, reply.attributes())) reply.send(Timeouts.NONE);
        else reply.error(ENOENT);
    }

    /** Truncate in /w; times are accepted and not kept; mode and owner are not supported (as the path API's tree has no chmod, chown). */
    @Override
    public void setattr(Request request, long ino, Stat attributes, int toSet, long fh, AttrReply reply) {
        Stat st = reply.attributes();
        if (!fill(ino, st)) {
            reply.error(ENOENT);
            return;
        }
        if ((toSet & (SET_MODE | SET_UID | SET_GID)) != 0) {
            reply.error(ENOSYS);
            return;
        }
        if ((toSet & SET_SIZE) != 0) {
            int s = scratchSlot(ino);
            if (s < 0) {
                reply.error(EACCES);
                return;
            }
            boolean used;
            synchronized (scratch) {
                used = scratch.used[s];
                if (used) {
                    scratch.size[s] = attributes.size();
                    scratch.fill(s, st);
                }
            }
            if (!used) {
                reply.error(ENOENT);
                return;
            }
        }
        reply.send(Timeouts.NONE);
    }

    // ---- files -------------------------------------------------------------------------------

    @Override
    public void open(Request request, long ino, int flags, OpenReply reply) {
        int s = scratchSlot(ino);
        if (s >= 0) {
            boolean used;
            synchronized (scratch) {
                used = scratch.used[s];
                if (used && (flags & Posix.O_TRUNC) != 0) scratch.size[s] = 0;
            }
            if (!used) {
                reply.error(ENOENT);
                return;
            }
        } else if (ino != DATA && !treeFile(ino)) {
            reply.error(ino <= SCRATCH_DIR ? EISDIR : ENOENT);
            return;
        }
        reply.open(0, 0);
    }

    @Override
    public void read(Request request, long ino, long fh, long size, long offset, DataReply reply) {
        long total = ino == DATA ? BenchTree.DATA_SIZE : treeFile(ino) ? BenchTree.FILE_SIZE : -1;
        if (total < 0) {
            if (scratchSlot(ino) >= 0) reply.data(NOTHING, 0, 0); // scratch data is discarded
            else reply.error(ENOENT);
            return;
        }
        if (offset >= total) {
            reply.data(NOTHING, 0, 0);
            return;
        }
        int n = (int) Math.min(Math.min(size, total - offset), MAX_READ);
        int from = (int) (offset % 251);
        reply.data(patternViews.get().clear().position(from).limit(from + n));
    }

    @Override
    public void write(Request request, long ino, long fh, ByteBuffer data, long offset, WriteReply reply) {
        int s = scratchSlot(ino);
        if (s < 0) {
            reply.error(ino < FIRST_SCRATCH ? EACCES : ENOENT);
            return;
        }
        int n = data.remaining();
        boolean used;
        synchronized (scratch) {
            used = scratch.used[s];
            if (used && offset + n > scratch.size[s]) scratch.size[s] = offset + n;
        }
        if (used) reply.written(n);
        else reply.error(ENOENT);
    }

    /** In /w only. An existing name is opened again (EEXIST with O_EXCL; emptied with O_TRUNC). */
    @Override
    public void create(Request request, long parent, Name name, int mode, int flags, CreateReply reply) {
        if (parent != SCRATCH_DIR) {
            reply.error(EACCES);
            return;
        }
        if (name.length() > NAME_MAX) {
            reply.error(ENAMETOOLONG);
            return;
        }
        int errno = 0;
        int s;
        Inode scratchInode = null;
        synchronized (scratch) {
            s = scratch.find(name);
            if (s >= 0 && (flags & Posix.O_EXCL) != 0) {
                errno = EEXIST;
            } else if (s >= 0 && (flags & Posix.O_TRUNC) != 0) {
                scratch.size[s] = 0;
            } else if (s < 0 && (s = scratch.add(name)) < 0) {
                errno = ENOSPC;
            }
            if (errno == 0) {
                scratch.lookups[s]++;
                scratch.fill(s, reply.attributes());
                scratchInode = scratch.inode[s];
            }
        }
        if (errno != 0) {
            reply.error(errno);
            return;
        }
        if (!reply.created(scratchInode, Timeouts.NONE, 0, 0)) {
            synchronized (scratch) {
                scratch.forget(s, 1);
            }
        }
    }

    @Override
    public void unlink(Request request, long parent, Name name, EmptyReply reply) {
        if (parent != SCRATCH_DIR) {
            reply.error(EACCES);
            return;
        }
        int s;
        synchronized (scratch) {
            s = scratch.find(name);
            if (s >= 0) {
                scratch.linked[s] = false;
                scratch.freeIfUnused(s);
            }
        }
        if (s >= 0) reply.ok();
        else reply.error(ENOENT);
    }

    @Override
    public void rename(Request request, long parent, Name name, long newParent, Name newName, int flags, EmptyReply reply) {
        if (flags != 0) {
            reply.error(EINVAL);
            return;
        }
        if (parent != SCRATCH_DIR || newParent != SCRATCH_DIR) {
            reply.error(EACCES);
            return;
        }
        if (newName.length() > NAME_MAX) {
            reply.error(ENAMETOOLONG);
            return;
        }
        int s;
        synchronized (scratch) {
            s = scratch.find(name);
            if (s >= 0) {
                int old = scratch.find(newName);
                if (old >= 0 && old != s) {
                    scratch.linked[old] = false;
                    scratch.freeIfUnused(old);
                }
                scratch.name[s] = newName.bytes();
            }
        }
        if (s >= 0) reply.ok();
        else reply.error(ENOENT);
    }

    // ---- directories -------------------------------------------------------------------------

    /** One listing for READDIR and READDIRPLUS (with each entry's inode and attributes). */
    @Override
    public void readdir(Request request, long ino, long fh, long size, long offset, DirReply reply) {
        if (reply.plus()) {
            list(ino, offset, null, reply);
        } else {
            list(ino, offset, reply, null);
        }
    }

    /** One batch of a listing into whichever reply is given: {@code plain} for readdir, {@code plus} for readdirplus. */
    private void list(long ino, long offset, DirReply plain, DirReply plus) {
        byte[][] names;
        long first;
        if (ino == ROOT) {
            names = ROOT_NAMES;
            first = SMALL_DIR;
        } else if (ino == SMALL_DIR) {
            names = SMALL_NAMES;
            first = FIRST_SMALL;
        } else if (ino == BIG_DIR) {
            names = BIG_NAMES;
            first = FIRST_BIG;
        } else if (ino == SCRATCH_DIR) {
            listScratch(offset, plain, plus);
            return;
        } else {
            if (plain != null) plain.error(ENOTDIR);
            else plus.error(ENOTDIR);
            return;
        }
        if (addDots(ino, offset, plain, plus)) {
            for (long k = Math.max(0, offset - 2); k < names.length; k++) {
                if (addTree(plain, plus, names[(int) k], first + k, k + 3)) break;
            }
        }
        send(plain, plus);
    }

    /** An entry of the fixed tree: with all its attributes for readdirplus, its type for readdir. True if the batch is full. */
    private boolean addTree(DirReply plain, DirReply plus, byte[] name, long ino, long next) {
        if (plus == null) return plain.add(name, ino, typeOf(ino), next);
        fill(ino, plus.attributes());
        return plus.add(name, TREE[(int) ino], Timeouts.NONE, next);
    }

    /** Entry k of a directory ("." 0, ".." 1, then its names) has the offset k + 1 of the entry after it. False if the batch is full. */
    private boolean addDots(long ino, long offset, DirReply plain, DirReply plus) {
        if (offset < 1 && addTree(plain, plus, DOT, ino, 1)) return false;
        return offset >= 2 || !addTree(plain, plus, DOT_DOT, ROOT, 2);
    }

    private static boolean send(DirReply plain, DirReply plus) {
        return plain != null ? plain.send() : plus.send();
    }

    /**
     * The files of /w from {@code offset}. With readdirplus each entry taken is one more lookup,
     * taken back if the kernel refuses the batch.
     */
    private void listScratch(long offset, DirReply plain, DirReply plus) {
        int taken = 0;
        int first = (int) Math.min(Math.max(0, offset - 2), Scratch.MAX);
        synchronized (scratch) {
            if (addDots(SCRATCH_DIR, offset, plain, plus)) {
                for (int s = first; s < scratch.end; s++) {
                    if (!scratch.linked[s]) continue;
                    long ino = FIRST_SCRATCH + s;
                    boolean full;
                    if (plus == null) {
                        full = plain.add(scratch.name[s], ino, S_IFREG, s + 3);
                    } else {
                        scratch.fill(s, plus.attributes());
                        full = plus.add(scratch.name[s], scratch.inode[s], Timeouts.NONE, s + 3);
                    }
                    if (full) break;
                    if (plus != null) {
                        scratch.lookups[s]++;
                        taken++;
                    }
                }
            }
            if (!send(plain, plus)) {
                for (int s = first; taken > 0 && s < scratch.end; s++) {
                    if (scratch.linked[s]) {
                        scratch.forget(s, 1);
                        taken--;
                    }
                }
            }
        }
    }

    /** What the kernel may cache: fuse-panama's defaults with libfuse's {@code auto_inval_data} as asked (the C filesystem's default: on). */
    private final KernelSettings settings;

    PanamaInodeBenchFs() {
        this(true);
    }

    /** @param autoInvalData whether the kernel checks attributes before reading cached data, as libfuse 3 has it by default */
    PanamaInodeBenchFs(boolean autoInvalData) {
        this.settings = KernelSettings.builder().autoInvalData(autoInvalData).build();
    }

    @Override
    public KernelSettings kernelSettings() {
        return settings;
    }

    /** The tree's mount options: fuse-panama's defaults. */
    static MountOptions options() {
        return MountOptions.builder().fsName("benchfs").build();
    }

    public static void main(String[] args) throws Exception {
        boolean autoInvalData = true;
        Path stats = null;
        int i = 0;
        for (; i < args.length - 1; i++) {
            if (args[i].equals("--no-auto-inval-data")) {
                autoInvalData = false;
            } else if (args[i].equals("--stats")) {
                stats = Path.of(args[++i]);
            } else {
                break;
            }
        }
        if (i != args.length - 1) {
            System.err.println("usage: PanamaInodeBenchFs [--no-auto-inval-data] [--stats SOCKET] MOUNTPOINT");
            System.exit(2);
        }
        InodeFileSystem fs = new PanamaInodeBenchFs(autoInvalData);
        if (stats != null) {
            AllocationStats counter = new AllocationStats();
            counter.serve(stats);
            fs = new CountingInodeFileSystem(fs, counter);
        }
        InodeMount mount = Fuse.mount(fs, Path.of(args[i]), options());
        System.exit(Foreground.serve(mount, LoggerFactory.getLogger("benchfs")));
    }
}
