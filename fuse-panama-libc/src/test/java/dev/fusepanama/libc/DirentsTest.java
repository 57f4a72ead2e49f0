package dev.fusepanama.libc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** getdents64's records read one by one, over batches, checked against what made the directory. No mount. */
class DirentsTest {
    private static final int O_RDONLY_DIRECTORY_CLOEXEC = 0 | Arch.constants().oDirectory | 02000000;
    private static final int DT_DIR = 4;
    private static final int DT_REG = 8;
    private static final int DT_LNK = 10;

    @TempDir
    Path dir;

    /** Every name, as bytes, with its inode and type, through many small batches; "." and ".." recognised. */
    @Test
    void everyRecordOfEveryBatchIsRead() throws Exception {
        Set<String> expected = new HashSet<>();
        try (Arena a = Arena.ofConfined()) {
            for (int i = 0; i < 300; i++) {
                // Lengths 2 to 253, and bytes that are not UTF-8.
                byte[] name = (i % 3 == 0 ? "x".repeat(1 + i % 250) + i : "f" + i).getBytes(StandardCharsets.US_ASCII);
                if (i % 7 == 0) name[0] = (byte) 0xff;
                int fd = Libc.openat(Libc.AT_FDCWD, Scratch.cString(a.allocate(4096), child(name)), 01 | 0100 | 02000000, 0644);
                assertTrue(fd >= 0, "create " + fd);
                Libc.close(fd);
                expected.add(HexFormat.of().formatHex(name));
            }
        }
        Files.createDirectory(dir.resolve("sub"));
        Files.createSymbolicLink(dir.resolve("link"), Path.of("sub"));
        expected.add(HexFormat.of().formatHex("sub".getBytes(StandardCharsets.US_ASCII)));
        expected.add(HexFormat.of().formatHex("link".getBytes(StandardCharsets.US_ASCII)));

        Map<String, int[]> seen = new HashMap<>();
        int dots = 0;
        int batches = 0;
        try (Arena a = Arena.ofConfined()) {
            int fd = open(a, dir);
            try {
                Dirents d = new Dirents(a.allocate(1024, 8));
                long n;
                while ((n = d.read(fd)) > 0) {
                    batches++;
                    while (d.next()) {
                        if (d.isDotOrDotDot()) {
                            dots++;
                            continue;
                        }
                        byte[] name = d.name();
                        assertEquals(name.length, d.nameLength());
                        String key = HexFormat.of().formatHex(name);
                        assertFalse(seen.containsKey(key), "listed twice: " + key);
                        seen.put(key, new int[] {d.type()});
                        MemorySegment st = a.allocate(Arch.constants().statSize, 8);
                        assertEquals(0, Libc.fstatat(fd, Scratch.cString(a.allocate(name.length + 1), name), st, Libc.AT_SYMLINK_NOFOLLOW));
                        long ino = st.get(java.lang.foreign.ValueLayout.JAVA_LONG, 8);
                        assertEquals(ino, d.ino(), "d_ino of " + key);
                    }
                }
                assertEquals(0, n, "the end of the directory");
                assertFalse(d.next(), "nothing after the end");
            } finally {
                Libc.close(fd);
            }
        }
        assertEquals(2, dots, "\".\" and \"..\"");
        assertTrue(batches > 10, "1 KiB batches: " + batches);
        assertEquals(expected, seen.keySet());
        assertEquals(DT_DIR, seen.get(HexFormat.of().formatHex("sub".getBytes())) [0]);
        assertEquals(DT_LNK, seen.get(HexFormat.of().formatHex("link".getBytes()))[0]);
        assertEquals(DT_REG, seen.get(HexFormat.of().formatHex("f1".getBytes()))[0]);
    }

    /** A record's d_off, sought to, goes on with the records after it. */
    @Test
    void theOffsetOfARecordResumesAfterIt() throws Exception {
        for (int i = 0; i < 50; i++) Files.writeString(dir.resolve("n" + i), "");
        try (Arena a = Arena.ofConfined()) {
            int fd = open(a, dir);
            try {
                Dirents d = new Dirents(a.allocate(32 * 1024, 8));
                List<byte[]> all = new ArrayList<>();
                List<Long> offsets = new ArrayList<>();
                while (d.read(fd) > 0) {
                    while (d.next()) {
                        all.add(d.name());
                        offsets.add(d.offset());
                    }
                }
                int middle = all.size() / 2;
                assertTrue(Libc.lseek(fd, offsets.get(middle), 0) >= 0);
                List<byte[]> rest = new ArrayList<>();
                while (d.read(fd) > 0) {
                    while (d.next()) rest.add(d.name());
                }
                assertEquals(all.size() - middle - 1, rest.size());
                for (int i = 0; i < rest.size(); i++) assertArrayEquals(all.get(middle + 1 + i), rest.get(i));
            } finally {
                Libc.close(fd);
            }
        }
    }

    @Test
    void aFileIsNoDirectory() throws Exception {
        Files.writeString(dir.resolve("f"), "x");
        try (Arena a = Arena.ofConfined()) {
            int fd = Libc.openat(Libc.AT_FDCWD, a.allocateFrom(dir.resolve("f").toString()), 02000000, 0);
            try {
                Dirents d = new Dirents(a.allocate(4096, 8));
                assertEquals(-20, d.read(fd), "ENOTDIR");
                assertFalse(d.next());
            } finally {
                Libc.close(fd);
            }
        }
    }

    private byte[] child(byte[] name) {
        byte[] d = dir.toString().getBytes(StandardCharsets.UTF_8);
        byte[] r = java.util.Arrays.copyOf(d, d.length + 1 + name.length);
        r[d.length] = '/';
        System.arraycopy(name, 0, r, d.length + 1, name.length);
        return r;
    }

    private static int open(Arena a, Path p) {
        int fd = Libc.openat(Libc.AT_FDCWD, a.allocateFrom(p.toString()), O_RDONLY_DIRECTORY_CLOEXEC, 0);
        assertTrue(fd >= 0, "open " + p + ": " + fd);
        return fd;
    }
}
