package dev.fusepanama.testkit;

import dev.fusepanama.Errno;
import dev.fusepanama.Posix;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * One process of random file operations in a directory of its own, each checked against a model
 * of what any POSIX filesystem holds afterwards: the bytes and size of every file, its hard links
 * (one file under several names), the names of each directory, extended attributes, and the errno
 * each call must give (EEXIST, ENOENT, ENOTEMPTY, EISDIR, ENODATA). Several at once in one
 * filesystem check it under concurrency; each knows only its own directory, so their models do
 * not meet. Calls are plain system calls ({@link Os}), names are bytes (some not UTF-8).
 *
 * <pre>
 * java ... dev.fusepanama.testkit.ModelWorker DIR SECONDS SEED [--no-xattrs] [--no-links] [--utf8-names] [--fill]
 * java ... dev.fusepanama.testkit.ModelWorker DIR SECONDS SEED --synced LOG
 * </pre>
 *
 * <p>With {@code --fill} the store is small and the worker writes big files: {@code ENOSPC} is
 * then allowed where a full disk gives it (a short or refused write, create, mkdir, link,
 * truncate up, setxattr), the model keeps exactly what each call acknowledged, and the worker
 * frees room by removing files when it meets one. With {@code --synced LOG} it writes whole
 * files, each fsync'ed and closed before its name and digest go to {@code LOG} (outside the
 * mount), and removes some, logged once removed, until the filesystem goes away (killed): what
 * the log names must be there after a new mount ({@link #checkSynced}).
 *
 * <p>Prints {@code ok OPERATIONS [REFUSALS]} and exits 0, or {@code FAIL} with what differed and the
 * operations before it, and exits 1.
 */
public final class ModelWorker {
    private static final int NAMES = 8;
    private static final byte[][] DIRS = {{}, "d0".getBytes(StandardCharsets.US_ASCII), "d1".getBytes(StandardCharsets.US_ASCII)};
    private static final String[] XATTRS = {"user.a", "user.b", "user.checksum"};

    /** A file: its bytes and extended attributes, shared by its hard links. */
    private static final class File {
        byte[] data = new byte[0];
        final Map<String, byte[]> xattrs = new TreeMap<>();
    }

    /** A name as bytes, comparable, for the model's maps. */
    private record Key(byte[] bytes) implements Comparable<Key> {
        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && Arrays.equals(k.bytes, bytes);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(bytes);
        }

        @Override
        public int compareTo(Key o) {
            return Arrays.compare(bytes, o.bytes);
        }

        @Override
        public String toString() {
            return printable(bytes);
        }
    }

    private final Path root;
    private final Random random;
    private final boolean xattrs;
    private final boolean links;
    private final boolean utf8Only;
    private final boolean fill;
    /** Each directory's entries (the worker's own directory is the empty key): names to files, subdirectories as null. */
    private final Map<Key, Map<Key, File>> dirs = new TreeMap<>();
    private final Deque<String> recent = new ArrayDeque<>();
    private long operations;
    private long refusals;

    private ModelWorker(Path root, long seed, boolean xattrs, boolean links, boolean utf8Only, boolean fill) {
        this.root = root;
        this.random = new Random(seed);
        this.xattrs = xattrs;
        this.links = links;
        this.utf8Only = utf8Only;
        this.fill = fill;
        dirs.put(new Key(new byte[0]), new TreeMap<>());
    }

    /** A difference between the filesystem and the model. */
    private static final class Mismatch extends Exception {
        private static final long serialVersionUID = 1L;

        Mismatch(String what) {
            super(what, null, false, false);
        }
    }

    /**
     * Runs the worker as the class description's command lines say: {@code DIR SECONDS SEED} and the options.
     *
     * @param args the directory (made if missing), the seconds to run, the seed of the random
     *     operations, then {@code --no-xattrs}, {@code --no-links}, {@code --utf8-names},
     *     {@code --fill}, or {@code --synced LOG}
     * @throws Exception if the worker cannot run at all (an I/O error outside the model's checks)
     */
    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        double seconds = Double.parseDouble(args[1]);
        long seed = Long.parseLong(args[2]);
        List<String> options = List.of(args).subList(3, args.length);
        long deadline = System.nanoTime() + (long) (seconds * 1e9);
        if (options.contains("--synced")) {
            System.out.println(synced(dir, Path.of(options.get(options.indexOf("--synced") + 1)), seed, deadline));
            return;
        }
        ModelWorker w = new ModelWorker(dir, seed, !options.contains("--no-xattrs"), !options.contains("--no-links"),
                options.contains("--utf8-names"), options.contains("--fill"));
        Files.createDirectories(dir);
        try {
            while (System.nanoTime() < deadline) {
                w.step();
            }
            w.checkEverything();
        } catch (Mismatch | RuntimeException e) {
            System.out.println("FAIL " + e.getMessage());
            System.out.println("after " + w.operations + " operations; the last ones:");
            for (String op : w.recent) System.out.println("  " + op);
            System.out.flush();
            System.exit(1);
        }
        System.out.println("ok " + w.operations + " " + w.refusals);
    }

    // ---- names -----------------------------------------------------------------------------

    private Key dirKey(int i) {
        return new Key(DIRS[i]);
    }

    /** A file name of the pool: {@code f3}, or a name that is not UTF-8 ({@code n\xff3}). */
    private byte[] fileName() {
        int i = random.nextInt(NAMES);
        if (!utf8Only && i >= NAMES - 2) return new byte[] {'n', (byte) 0xff, (byte) ('0' + i)};
        return ("f" + i).getBytes(StandardCharsets.US_ASCII);
    }

    /**
     * A name in {@code dir} to create, rename to or remove: mostly a file name of the pool, now
     * and then (in the worker's own directory) the name of one of its directories, for the calls'
     * EISDIR and EEXIST.
     */
    private byte[] nameIn(Key dir) {
        if (dir.bytes.length == 0 && random.nextInt(12) == 0) return DIRS[1 + random.nextInt(DIRS.length - 1)];
        return fileName();
    }

    private byte[] path(Key dir, byte[] name) {
        byte[] d = Os.bytes(root);
        int extra = dir.bytes.length == 0 ? 0 : dir.bytes.length + 1;
        byte[] p = Arrays.copyOf(d, d.length + extra + 1 + name.length);
        int at = d.length;
        if (extra > 0) {
            p[at++] = '/';
            System.arraycopy(dir.bytes, 0, p, at, dir.bytes.length);
            at += dir.bytes.length;
        }
        p[at++] = '/';
        System.arraycopy(name, 0, p, at, name.length);
        return p;
    }

    /** A random place for a name: an existing directory (or one that may not exist, for ENOENT), and a name. */
    private Key randomDir() {
        return dirKey(random.nextInt(DIRS.length));
    }

    /** An existing file's directory and name, or null. */
    private Key[] randomFile() {
        List<Key[]> all = new ArrayList<>();
        for (Map.Entry<Key, Map<Key, File>> d : dirs.entrySet()) {
            for (Map.Entry<Key, File> e : d.getValue().entrySet()) {
                if (e.getValue() != null) all.add(new Key[] {d.getKey(), e.getKey()});
            }
        }
        return all.isEmpty() ? null : all.get(random.nextInt(all.size()));
    }

    private File file(Key[] at) {
        return dirs.get(at[0]).get(at[1]);
    }

    private static String printable(byte[] b) {
        StringBuilder s = new StringBuilder();
        for (byte c : b) {
            if (c >= 0x20 && c < 0x7f) s.append((char) c);
            else s.append(String.format("\\x%02x", c & 0xff));
        }
        return s.toString();
    }

    private String where(Key dir, Key name) {
        return (dir.bytes.length == 0 ? "" : dir + "/") + name;
    }

    private void note(String op) {
        operations++;
        recent.addLast(op);
        if (recent.size() > 400) recent.removeFirst();
    }

    private static void expect(long expected, long got, String what) throws Mismatch {
        if (expected != got) throw new Mismatch(what + ": expected " + describe(expected) + ", got " + describe(got));
    }

    private static String describe(long rc) {
        return rc < 0 ? Errno.name((int) -rc) : Long.toString(rc);
    }

    /** Whether {@code rc} is the refusal of a full store, which {@code --fill} allows. */
    private boolean full(long rc) {
        if (fill && (rc == -Errno.ENOSPC || rc == -Errno.EDQUOT)) {
            refusals++;
            return true;
        }
        return false;
    }

    // ---- one step ----------------------------------------------------------------------------

    private void step() throws Mismatch, IOException {
        int pick = random.nextInt(100);
        if (pick < 12) create();
        else if (pick < 36) write(false);
        else if (pick < 44) write(true);
        else if (pick < 50) truncate();
        else if (pick < 60) rename();
        else if (pick < 65 && links) link();
        else if (pick < 72) unlink();
        else if (pick < 76) mkdir();
        else if (pick < 79) rmdir();
        else if (pick < 87 && xattrs) xattr();
        else if (pick < 92) listing(randomDir());
        else checkFile();
    }

    private void create() throws Mismatch {
        Key dir = randomDir();
        byte[] name = nameIn(dir);
        Key key = new Key(name);
        boolean excl = random.nextBoolean();
        note((excl ? "create-excl " : "create-trunc ") + where(dir, key));
        int fd = Os.open(path(dir, name), Posix.O_CREAT | Posix.O_WRONLY | (excl ? Posix.O_EXCL : Posix.O_TRUNC), 0644);
        Map<Key, File> entries = dirs.get(dir);
        if (entries == null) {
            expect(missingDir(dir), fd, "create in a missing directory");
            return;
        }
        boolean exists = entries.containsKey(key);
        if (exists && entries.get(key) == null) {
            expect(excl ? -Errno.EEXIST : -Errno.EISDIR, fd, "create over a directory");
            return;
        }
        if (excl && exists) {
            expect(-Errno.EEXIST, fd, "O_EXCL create of an existing file");
            return;
        }
        if (fd < 0 && full(fd)) {
            if (!exists) expectAbsent(dir, key, "a create refused for lack of room");
            freeRoom();
            return;
        }
        if (fd < 0) throw new Mismatch("create " + where(dir, key) + ": " + describe(fd));
        Os.close(fd);
        if (exists) entries.get(key).data = new byte[0];
        else entries.put(key, new File());
        checkFile(dir, key);
    }

    /** The errno of a path through {@code dir}, a directory the model does not have: a file of that name, or nothing. */
    private int missingDir(Key dir) {
        File f = dirs.get(dirKey(0)).get(dir);
        return dirs.get(dirKey(0)).containsKey(dir) && f != null ? -Errno.ENOTDIR : -Errno.ENOENT;
    }

    private void expectAbsent(Key dir, Key name, String what) throws Mismatch {
        try {
            Os.lstat(path(dir, name.bytes));
            throw new Mismatch(what + " left " + where(dir, name) + " behind");
        } catch (Os.OsException e) {
            expect(-Errno.ENOENT, -e.errno, what);
        }
    }

    private void write(boolean append) throws Mismatch {
        Key[] at = randomFile();
        if (at == null) {
            create();
            return;
        }
        File f = file(at);
        int max = fill ? 512 * 1024 : 16 * 1024;
        byte[] data = new byte[1 + random.nextInt(max)];
        random.nextBytes(data);
        long offset = append ? f.data.length : random.nextInt(f.data.length + (fill ? 64 * 1024 : 8192));
        boolean sync = random.nextInt(5) == 0;
        note((append ? "append " : "pwrite ") + where(at[0], at[1]) + " " + data.length + " at " + offset + (sync ? " +fsync" : ""));
        int fd = Os.open(path(at[0], at[1].bytes), Posix.O_WRONLY | (append ? Posix.O_APPEND : 0), 0);
        if (fd < 0) throw new Mismatch("open for writing " + where(at[0], at[1]) + ": " + describe(fd));
        long n;
        try {
            n = append ? Os.write(fd, data) : Os.pwrite(fd, data, offset);
            if (n >= 0 && sync) expect(0, Os.fsync(fd), "fsync");
        } finally {
            int closed = Os.close(fd);
            if (closed != 0) throw new Mismatch("close after a write: " + describe(closed));
        }
        if (n < 0 && full(n)) {
            freeRoom();
            return;
        }
        if (n < 0 || (n < data.length && !fill)) throw new Mismatch("write of " + data.length + ": " + describe(n));
        if (n < data.length) refusals++; // a short write on a full store: what it acknowledged is kept
        int end = (int) (offset + n);
        if (end > f.data.length) f.data = Arrays.copyOf(f.data, end);
        System.arraycopy(data, 0, f.data, (int) offset, (int) n);
        checkFile(at[0], at[1]);
    }

    private void truncate() throws Mismatch {
        Key[] at = randomFile();
        if (at == null) return;
        File f = file(at);
        int size = random.nextInt(fill ? 512 * 1024 : 40_000);
        note("truncate " + where(at[0], at[1]) + " to " + size);
        int rc = Os.truncate(path(at[0], at[1].bytes), size);
        if (rc < 0 && full(rc)) { // growing, or a filesystem that rewrites the new last block (an encrypted one)
            checkFile(at[0], at[1]);
            freeRoom();
            return;
        }
        expect(0, rc, "truncate");
        f.data = Arrays.copyOf(f.data, size);
        checkFile(at[0], at[1]);
    }

    private void rename() throws Mismatch {
        Key[] from = randomFile();
        if (from == null) return;
        Key toDir = randomDir();
        Key to = new Key(nameIn(toDir));
        note("rename " + where(from[0], from[1]) + " " + where(toDir, to));
        int rc = Os.renameat2(path(from[0], from[1].bytes), path(toDir, to.bytes), 0);
        Map<Key, File> target = dirs.get(toDir);
        if (target == null) {
            expect(missingDir(toDir), rc, "rename into a missing directory");
            return;
        }
        File moving = file(from);
        if (target.containsKey(to) && target.get(to) == null) {
            // Over the file's own directory the kernel refuses before it looks at types: the
            // target is the source's ancestor (lock_rename's trap), ENOTEMPTY.
            boolean ownDir = toDir.bytes.length == 0 && to.equals(from[0]);
            expect(ownDir ? -Errno.ENOTEMPTY : -Errno.EISDIR, rc,
                    ownDir ? "rename of a file over its own directory" : "rename of a file over a directory");
            return;
        }
        if (rc < 0 && full(rc)) { // a directory that must grow on a full disk: nothing moved
            checkFile(from[0], from[1]);
            return;
        }
        expect(0, rc, "rename");
        if (target.get(to) == moving) return; // two names of one file: rename does nothing
        dirs.get(from[0]).remove(from[1]);
        target.put(to, moving);
        checkFile(toDir, to);
    }

    private void link() throws Mismatch {
        Key[] from = randomFile();
        if (from == null) return;
        Key toDir = randomDir();
        Key to = new Key(fileName());
        note("link " + where(from[0], from[1]) + " " + where(toDir, to));
        int rc = Os.link(path(from[0], from[1].bytes), path(toDir, to.bytes));
        Map<Key, File> target = dirs.get(toDir);
        if (target == null) {
            expect(missingDir(toDir), rc, "link into a missing directory");
            return;
        }
        if (target.containsKey(to)) {
            expect(-Errno.EEXIST, rc, "link over an existing name");
            return;
        }
        if (rc < 0 && full(rc)) {
            expectAbsent(toDir, to, "a link refused for lack of room");
            return;
        }
        expect(0, rc, "link");
        target.put(to, file(from));
        checkFile(toDir, to);
    }

    private void unlink() throws Mismatch {
        Key dir = randomDir();
        Key name = new Key(nameIn(dir));
        note("unlink " + where(dir, name));
        int rc = Os.unlink(path(dir, name.bytes));
        Map<Key, File> entries = dirs.get(dir);
        if (entries == null) {
            expect(missingDir(dir), rc, "unlink in a missing directory");
            return;
        }
        if (!entries.containsKey(name)) {
            expect(-Errno.ENOENT, rc, "unlink of a missing name");
            return;
        }
        if (entries.get(name) == null) {
            expect(-Errno.EISDIR, rc, "unlink of a directory");
            return;
        }
        expect(0, rc, "unlink");
        entries.remove(name);
    }

    private void mkdir() throws Mismatch {
        int i = 1 + random.nextInt(DIRS.length - 1);
        Key dir = dirKey(i);
        note("mkdir " + dir);
        int rc = Os.mkdir(path(dirKey(0), dir.bytes), 0755);
        if (dirs.get(dirKey(0)).containsKey(dir)) {
            expect(-Errno.EEXIST, rc, "mkdir of an existing name");
            return;
        }
        if (rc < 0 && full(rc)) {
            expectAbsent(dirKey(0), dir, "a mkdir refused for lack of room");
            return;
        }
        expect(0, rc, "mkdir");
        dirs.put(dir, new TreeMap<>());
        dirs.get(dirKey(0)).put(dir, null);
    }

    private void rmdir() throws Mismatch {
        int i = 1 + random.nextInt(DIRS.length - 1);
        Key dir = dirKey(i);
        note("rmdir " + dir);
        int rc = Os.rmdir(path(dirKey(0), dir.bytes));
        Map<Key, File> entries = dirs.get(dir);
        if (entries == null) {
            expect(missingDir(dir), rc, "rmdir of a missing directory");
        } else if (!entries.isEmpty()) {
            expect(-Errno.ENOTEMPTY, rc, "rmdir of a directory with entries");
        } else {
            expect(0, rc, "rmdir");
            dirs.remove(dir);
            dirs.get(dirKey(0)).remove(dir);
        }
    }

    private void xattr() throws Mismatch {
        Key[] at = randomFile();
        if (at == null) return;
        File f = file(at);
        String name = XATTRS[random.nextInt(XATTRS.length)];
        byte[] p = path(at[0], at[1].bytes);
        int what = random.nextInt(3);
        if (what == 0) {
            byte[] value = new byte[random.nextInt(200)];
            random.nextBytes(value);
            note("setxattr " + where(at[0], at[1]) + " " + name + " " + value.length);
            int rc = Os.setxattr(p, name, value, 0);
            if (rc < 0 && full(rc)) return;
            expect(0, rc, "setxattr");
            f.xattrs.put(name, value);
        } else if (what == 1) {
            note("removexattr " + where(at[0], at[1]) + " " + name);
            int rc = Os.removexattr(p, name);
            expect(f.xattrs.remove(name) != null ? 0 : -Errno.ENODATA, rc, "removexattr");
        }
        checkXattrs(at[0], at[1]);
    }

    /** Makes room on a full store: removes up to three files (the model's and the store's). */
    private void freeRoom() throws Mismatch {
        for (int i = 0; i < 3; i++) {
            Key[] at = randomFile();
            if (at == null) return;
            note("unlink " + where(at[0], at[1]) + " (to make room)");
            expect(0, Os.unlink(path(at[0], at[1].bytes)), "unlink to make room");
            dirs.get(at[0]).remove(at[1]);
        }
    }

    // ---- checks ------------------------------------------------------------------------------

    private void checkFile() throws Mismatch {
        Key[] at = randomFile();
        if (at != null) checkFile(at[0], at[1]);
    }

    /** The file's size, link count and every byte, as the model has them. */
    private void checkFile(Key dir, Key name) throws Mismatch {
        File f = dirs.get(dir).get(name);
        byte[] p = path(dir, name.bytes);
        Os.StatResult st;
        try {
            st = Os.lstat(p);
        } catch (Os.OsException e) {
            throw new Mismatch("lstat " + where(dir, name) + ": " + Errno.name(e.errno));
        }
        if ((st.mode() & Posix.S_IFMT) != Posix.S_IFREG) throw new Mismatch(where(dir, name) + " is not a regular file");
        expect(f.data.length, st.size(), "size of " + where(dir, name));
        expect(links(f), st.nlink(), "link count of " + where(dir, name));
        int fd = Os.open(p, Posix.O_RDONLY, 0);
        if (fd < 0) throw new Mismatch("open " + where(dir, name) + ": " + describe(fd));
        try {
            byte[] got = new byte[0];
            try {
                for (byte[] part; (part = Os.pread(fd, f.data.length + 1 - got.length, got.length)).length > 0
                        && got.length <= f.data.length; ) {
                    got = concat(got, part);
                }
            } catch (Os.OsException e) {
                throw new Mismatch("read " + where(dir, name) + ": " + Errno.name(e.errno));
            }
            if (!Arrays.equals(got, f.data)) {
                throw new Mismatch("contents of " + where(dir, name) + ": " + got.length + " bytes, expected " + f.data.length
                        + firstDifference(f.data, got));
            }
        } finally {
            Os.close(fd);
        }
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] r = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, r, a.length, b.length);
        return r;
    }

    private static String firstDifference(byte[] expected, byte[] got) {
        int n = Math.min(expected.length, got.length);
        for (int i = 0; i < n; i++) {
            if (expected[i] != got[i]) return "; first difference at byte " + i + " (" + got[i] + " for " + expected[i] + ")";
        }
        return n < expected.length ? "; cut short at " + n : "";
    }

    private int links(File f) {
        int n = 0;
        for (Map<Key, File> entries : dirs.values()) {
            for (File g : entries.values()) {
                if (g == f) n++;
            }
        }
        return n;
    }

    private void checkXattrs(Key dir, Key name) throws Mismatch {
        File f = dirs.get(dir).get(name);
        byte[] p = path(dir, name.bytes);
        Os.Result list = Os.listxattr(p, 65536);
        if (list.rc() < 0) throw new Mismatch("listxattr " + where(dir, name) + ": " + describe(list.rc()));
        Set<String> names = new TreeSet<>();
        for (String n : list.names()) {
            if (n.startsWith("user.")) names.add(n);
        }
        if (!names.equals(f.xattrs.keySet())) throw new Mismatch("xattrs of " + where(dir, name) + ": " + names + ", expected "
                + f.xattrs.keySet());
        for (Map.Entry<String, byte[]> e : f.xattrs.entrySet()) {
            Os.Result v = Os.getxattr(p, e.getKey(), 65536);
            if (v.rc() < 0) throw new Mismatch("getxattr " + e.getKey() + " of " + where(dir, name) + ": " + describe(v.rc()));
            if (!Arrays.equals(v.data(), e.getValue())) throw new Mismatch("value of " + e.getKey() + " of " + where(dir, name));
        }
    }

    /** The names in {@code dir}, as the model has them (or ENOENT for a directory that is not there). */
    private void listing(Key dir) throws Mismatch {
        note("list " + (dir.bytes.length == 0 ? "." : dir.toString()));
        Map<Key, File> entries = dirs.get(dir);
        Path p = dir.bytes.length == 0 ? root : root.resolve(new String(dir.bytes, StandardCharsets.US_ASCII));
        List<byte[]> got;
        try {
            got = Os.listBytes(p);
        } catch (Os.OsException e) {
            if (entries == null && -e.errno == missingDir(dir)) return;
            throw new Mismatch("listing " + dir + ": " + Errno.name(e.errno));
        }
        if (entries == null) throw new Mismatch("a removed directory " + dir + " lists");
        Set<Key> names = new TreeSet<>();
        for (byte[] n : got) {
            if (!Arrays.equals(n, new byte[] {'.'}) && !Arrays.equals(n, new byte[] {'.', '.'})) names.add(new Key(n));
        }
        if (!names.equals(entries.keySet())) throw new Mismatch("listing of " + dir + ": " + names + ", expected " + entries.keySet());
    }

    /** At the end: every directory lists as the model says, every file reads back whole, with its attributes. */
    private void checkEverything() throws Mismatch {
        Map<File, Boolean> seen = new IdentityHashMap<>();
        for (Map.Entry<Key, Map<Key, File>> d : new TreeMap<>(dirs).entrySet()) {
            listing(d.getKey());
            for (Map.Entry<Key, File> e : d.getValue().entrySet()) {
                if (e.getValue() == null) continue;
                checkFile(d.getKey(), e.getKey());
                if (xattrs && seen.put(e.getValue(), true) == null) checkXattrs(d.getKey(), e.getKey());
            }
        }
    }

    // ---- synced files, for a kill of the filesystem's process ----------------------------------

    /**
     * Writes whole files under {@code dir}, each written, fsync'ed and closed before its name and
     * digest are appended to {@code log} (and the log fsync'ed); removes some, logging each once
     * removed. Until the deadline or until the filesystem fails (killed): a summary line.
     */
    private static String synced(Path dir, Path log, long seed, long deadline) throws IOException {
        Files.createDirectories(dir);
        Random random = new Random(seed);
        List<String> live = new ArrayList<>();
        int written = 0;
        try (FileChannel out = FileChannel.open(log, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.APPEND)) {
            for (int v = 0; System.nanoTime() < deadline; v++) {
                String name = "v" + v;
                byte[] data = new byte[random.nextInt(200_000)];
                random.nextBytes(data);
                int fd = Os.open(Os.bytes(dir.resolve(name)), Posix.O_CREAT | Posix.O_EXCL | Posix.O_WRONLY, 0644);
                if (fd < 0) return "stopped " + written + " " + describe(fd);
                long n = 0;
                for (int at = 0; at < data.length && n >= 0; ) {
                    int len = Math.min(data.length - at, 1 + random.nextInt(70_000));
                    n = Os.pwrite(fd, Arrays.copyOfRange(data, at, at + len), at);
                    if (n > 0) at += (int) n;
                }
                int rc = n < 0 ? (int) n : Os.fsync(fd);
                int closed = Os.close(fd);
                if (rc < 0 || closed < 0) return "stopped " + written + " " + describe(rc < 0 ? rc : closed);
                out.write(ByteBuffer.wrap(("wrote " + name + " " + digest(data) + "\n").getBytes(StandardCharsets.US_ASCII)));
                out.force(false);
                written++;
                live.add(name);
                if (live.size() > 20) {
                    // Logged before and after: an unlink the kill cut off may or may not have happened.
                    String gone = live.remove(random.nextInt(live.size()));
                    out.write(ByteBuffer.wrap(("removing " + gone + "\n").getBytes(StandardCharsets.US_ASCII)));
                    out.force(false);
                    rc = Os.unlink(Os.bytes(dir.resolve(gone)));
                    if (rc < 0) return "stopped " + written + " " + describe(rc);
                    out.write(ByteBuffer.wrap(("removed " + gone + "\n").getBytes(StandardCharsets.US_ASCII)));
                    out.force(false);
                }
            }
        }
        return "ok " + written;
    }

    /**
     * Checks {@code dir} against the log a {@code --synced} worker kept: every file it wrote and did
     * not remove has exactly its contents, every file it removed is gone (one whose removal was under
     * way at the kill may be either).
     *
     * @param dir the worker's directory, in a new mount of the same store
     * @param log the worker's log
     * @param counted an array whose first element is increased by the number of files checked
     * @return what differed, or null if nothing did
     * @throws IOException if the log or a file cannot be read
     */
    public static String checkSynced(Path dir, Path log, long[] counted) throws IOException {
        Map<String, String> expected = new HashMap<>();
        Set<String> removing = new TreeSet<>();
        for (String line : Files.readAllLines(log, StandardCharsets.US_ASCII)) {
            String[] w = line.split(" ");
            if (w[0].equals("wrote")) expected.put(w[1], w[2]);
            else if (w[0].equals("removing")) removing.add(w[1]);
            else if (w[0].equals("removed")) {
                expected.put(w[1], null);
                removing.remove(w[1]);
            }
        }
        for (Map.Entry<String, String> e : expected.entrySet()) {
            Path p = dir.resolve(e.getKey());
            if (e.getValue() == null) {
                if (Files.exists(p)) return e.getKey() + " was removed and is there again";
                continue;
            }
            if (removing.contains(e.getKey()) && !Files.exists(p)) continue; // its unlink was under way at the kill
            if (!Files.exists(p)) return e.getKey() + " was written and fsync'ed and is missing";
            String got = digest(Files.readAllBytes(p));
            if (!got.equals(e.getValue())) return e.getKey() + " was written and fsync'ed and reads back otherwise";
            counted[0]++;
        }
        return null;
    }

    private static String digest(byte[] data) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(data));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
