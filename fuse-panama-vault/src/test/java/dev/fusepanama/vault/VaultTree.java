package dev.fusepanama.vault;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fusepanama.Errno;
import dev.fusepanama.Posix;
import dev.fusepanama.testkit.Os;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The tree the interoperability tests write through one implementation and read through the
 * other: everything the vault format has edge cases for (sizes around the 4 KiB block, holes, a
 * name whose encryption is over 255 bytes, names of 15 to 17 bytes around the 16-byte padding, a
 * name that is not UTF-8, links, a FIFO, modes, a renamed directory). Paths are bytes throughout.
 */
final class VaultTree {
    private VaultTree() {}

    static final int[] SIZES = {0, 1, 15, 16, 17, 4095, 4096, 4097, 8191, 8192, 8193, 131_089, (1 << 20) + 5};
    static final byte[] NON_UTF8 = {'n', 'o', 'n', '-', (byte) 0xff, (byte) 0xfe, '.', 'b', 'i', 'n'};
    static final String LONG_NAME = "L".repeat(200);

    /** Deterministic contents of {@code size} bytes, different per {@code seed}. */
    static byte[] data(int size, long seed) {
        byte[] b = new byte[size];
        new Random(seed).nextBytes(b);
        return b;
    }

    static byte[] path(Path root, String relative) {
        return (root + "/" + relative).getBytes(StandardCharsets.UTF_8);
    }

    static byte[] path(Path root, byte[] relative) {
        byte[] r = (root + "/").getBytes(StandardCharsets.UTF_8);
        byte[] out = Arrays.copyOf(r, r.length + relative.length);
        System.arraycopy(relative, 0, out, r.length, relative.length);
        return out;
    }

    static void writeFile(byte[] path, byte[] data) {
        int fd = Os.open(path, Posix.O_WRONLY | Posix.O_CREAT | Posix.O_TRUNC, 0644);
        assertTrue(fd >= 0, () -> "open " + new String(path, StandardCharsets.UTF_8) + ": " + Errno.name(-fd));
        try {
            if (data.length > 0) assertEquals(data.length, Os.write(fd, data));
        } finally {
            Os.close(fd);
        }
    }

    static void check(int rc, String what) {
        assertTrue(rc >= 0, () -> what + ": " + Errno.name(-rc));
    }

    /** Writes the tree into the empty directory {@code root}. */
    static void write(Path root) {
        for (int size : SIZES) {
            writeFile(path(root, "size-" + size), data(size, size));
        }
        for (int n = 15; n <= 17; n++) {
            writeFile(path(root, "n".repeat(n)), data(n, -n));
        }
        writeFile(path(root, LONG_NAME), data(5000, 7));
        writeFile(path(root, NON_UTF8), data(300, 8));
        check(Os.mkdir(path(root, "dir"), 0750), "mkdir dir");
        check(Os.mkdir(path(root, "dir/sub"), 0755), "mkdir dir/sub");
        writeFile(path(root, "dir/sub/deep.txt"), "deep\n".getBytes(StandardCharsets.UTF_8));
        check(Os.mkdir(path(root, "dir/" + LONG_NAME), 0700), "mkdir long");
        writeFile(path(root, "dir/" + LONG_NAME + "/inside"), data(4097, 9));
        // Holes: data after a gap, and a file extended by truncate.
        int fd = Os.open(path(root, "sparse"), Posix.O_RDWR | Posix.O_CREAT, 0600);
        check(fd, "open sparse");
        assertEquals(100, Os.pwrite(fd, data(100, 10), 3 * 4096 + 10));
        check(Os.ftruncate(fd, 50_000), "ftruncate sparse");
        Os.close(fd);
        check(Os.symlink("size-4096".getBytes(StandardCharsets.UTF_8), path(root, "link")), "symlink");
        check(Os.symlink(("target/" + "t".repeat(290)).getBytes(StandardCharsets.UTF_8), path(root, "long-link")), "symlink long");
        check(Os.link(path(root, "size-4097"), path(root, "hard")), "link");
        check(Os.mknod(path(root, "fifo"), Posix.S_IFIFO | 0640, 0), "mknod");
        check(Os.chmod(path(root, "size-1"), 0600), "chmod");
        check(Os.setxattr(path(root, "size-4097"), "user.note", "a note".getBytes(StandardCharsets.UTF_8), 0), "setxattr");
        check(Os.setxattr(path(root, "size-4097"), "user.empty", new byte[0], 0), "setxattr empty");
        check(Os.setxattr(path(root, "dir"), "user." + "x".repeat(100), data(3000, 12), 0), "setxattr dir");
        check(Os.mkdir(path(root, "before"), 0755), "mkdir before");
        writeFile(path(root, "before/inner"), data(6000, 11));
        check(Os.renameat2(path(root, "before"), path(root, "after"), 0), "rename");
    }

    /**
     * What a program sees of the tree: per path (bytes shown in hex where not printable), the type,
     * permission bits, link count, size, and a digest of a file's contents or a link's target.
     */
    static SortedMap<String, String> snapshot(Path root) {
        SortedMap<String, String> out = new TreeMap<>();
        walk(root, new byte[0], out);
        return out;
    }

    private static void walk(Path root, byte[] relative, SortedMap<String, String> out) {
        Path dir = relative.length == 0 ? root : Path.of(new String(path(root, relative), StandardCharsets.ISO_8859_1));
        List<byte[]> names = Os.listBytes(relative.length == 0 ? root : dir);
        for (byte[] name : names) {
            if (Arrays.equals(name, new byte[] {'.'}) || Arrays.equals(name, new byte[] {'.', '.'})) continue;
            byte[] rel = relative.length == 0 ? name : concat(relative, (byte) '/', name);
            byte[] full = path(root, rel);
            Os.StatResult st = Os.lstat(full);
            int type = st.mode() & Posix.S_IFMT;
            String what = switch (type) {
                case Posix.S_IFREG -> "file " + digest(read(full, st.size()));
                case Posix.S_IFLNK -> "link " + printable(Os.readlink(full));
                case Posix.S_IFDIR -> "dir";
                case Posix.S_IFIFO -> "fifo";
                default -> "type " + Integer.toOctalString(type);
            };
            out.put(printable(rel), what + " mode " + Integer.toOctalString(st.mode() & 07777) + " nlink "
                    + (type == Posix.S_IFDIR ? "-" : st.nlink()) + " size " + st.size()
                    + (type == Posix.S_IFREG || type == Posix.S_IFDIR ? " xattrs " + xattrs(full) : ""));
            if (type == Posix.S_IFDIR) walk(root, rel, out);
        }
    }

    /** The extended attributes of {@code path}: sorted names, each with a digest of its value. */
    private static String xattrs(byte[] path) {
        Os.Result list = Os.listxattr(path, 65536);
        assertTrue(list.rc() >= 0, "listxattr: " + list.rc());
        SortedMap<String, String> out = new TreeMap<>();
        for (String name : list.names()) {
            Os.Result v = Os.getxattr(path, name, 65536);
            assertTrue(v.rc() >= 0, "getxattr " + name + ": " + v.rc());
            out.put(name, digest(v.data()));
        }
        return out.toString();
    }

    private static byte[] concat(byte[] a, byte sep, byte[] b) {
        byte[] out = Arrays.copyOf(a, a.length + 1 + b.length);
        out[a.length] = sep;
        System.arraycopy(b, 0, out, a.length + 1, b.length);
        return out;
    }

    static byte[] read(byte[] path, long size) {
        int fd = Os.open(path, Posix.O_RDONLY, 0);
        check(fd, "open " + new String(path, StandardCharsets.UTF_8));
        try {
            java.io.ByteArrayOutputStream all = new java.io.ByteArrayOutputStream();
            byte[] chunk;
            while ((chunk = Os.pread(fd, 256 * 1024, all.size())).length > 0) all.writeBytes(chunk);
            assertEquals(size, all.size(), () -> "bytes read from " + new String(path, StandardCharsets.UTF_8));
            return all.toByteArray();
        } finally {
            Os.close(fd);
        }
    }

    static String digest(byte[] data) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(data)).substring(0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
    }

    static String printable(byte[] b) {
        StringBuilder s = new StringBuilder();
        for (byte x : b) {
            if (x >= 0x20 && x < 0x7f) s.append((char) x);
            else s.append(String.format("\\x%02x", x & 0xff));
        }
        return s.toString();
    }
}
