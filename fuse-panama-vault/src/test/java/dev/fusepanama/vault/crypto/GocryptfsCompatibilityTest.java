package dev.fusepanama.vault.crypto;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static java.nio.charset.StandardCharsets.US_ASCII;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.fusepanama.Errno;
import dev.fusepanama.Posix;
import dev.fusepanama.testkit.MountTest;
import dev.fusepanama.testkit.Os;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The format against the real gocryptfs (2.3 in Debian): a vault gocryptfs creates unlocks
 * here; a vault created here mounts in gocryptfs, and what gocryptfs writes into it decrypts
 * here byte for byte; what is encrypted here into a vault reads back through gocryptfs byte for
 * byte. The tree covers the name lengths around the padding and long-name boundaries, a name
 * that is not UTF-8, sizes around the block boundary, a sparse file, symlinks, subdirectories.
 */
@MountTest
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class GocryptfsCompatibilityTest {
    private static final Path GOCRYPTFS = Path.of("/usr/bin/gocryptfs");
    private static final Path FUSERMOUNT = Path.of("/usr/bin/fusermount3");
    private static final String PASSWORD = "pässwörd ✓";
    private static final byte[] NOT_UTF8 = {'c', 'a', 'f', (byte) 0xe9, ' ', (byte) 0xff, (byte) 0xfe};
    private static final byte[] LONG_NAME = name('L', 200);
    private static final byte[] LONG_DIR_NAME = name('D', 190);
    /** Ten bytes in block 3, a size ending 100 bytes into block 5: blocks 0, 1, 2 and 4 are holes. */
    private static final long SPARSE_SIZE = 5 * 4096 + 100;
    private static final long SPARSE_DATA_AT = 3 * 4096 + 5;

    @TempDir
    Path tmp;

    @BeforeAll
    static void gocryptfsIsInstalled() {
        assumeTrue(Files.isExecutable(GOCRYPTFS), "gocryptfs is not installed (Debian package gocryptfs): "
                + "the compatibility tests need the real binary");
        assumeTrue(Files.isExecutable(FUSERMOUNT) && Files.exists(Path.of("/dev/fuse")),
                "mounting gocryptfs needs /dev/fuse and fusermount3 (Debian package fuse3)");
    }

    // ---- config

    @Test
    void aVaultGocryptfsInitialisedUnlocksWithItsPasswordAndNotWithAnother() throws Exception {
        Path cipher = Files.createDirectory(tmp.resolve("cipher"));
        run(GOCRYPTFS.toString(), "-init", "-q", "-scryptn", "10", "-passfile", passfile().toString(), cipher.toString());

        VaultConfig config = VaultConfig.read(cipher.resolve(VaultConfig.FILE_NAME));
        assertEquals("gocryptfs 2.3", config.creator());
        assertEquals(255, config.longNameMax());
        assertEquals(10, config.scryptLogN());
        try (MasterKey key = config.unlock(PASSWORD.toCharArray())) {
            assertFalse(key.isClosed());
        }
        assertThrows(WrongPasswordException.class, () -> config.unlock("passwörd ✓".toCharArray()));
        assertEquals(16, DirIv.read(cipher).length);
        assertEquals("r--r--r--", mode(cipher.resolve(DirIv.FILE_NAME)));
        assertEquals("r--------", mode(cipher.resolve(VaultConfig.FILE_NAME)));
    }

    @Test
    void aVaultGocryptfsInitialisedWithALowerLongNameMaxSaysSo() throws Exception {
        Path cipher = Files.createDirectory(tmp.resolve("cipher"));
        run(GOCRYPTFS.toString(), "-init", "-q", "-scryptn", "10", "-longnamemax", "100", "-passfile", passfile().toString(), cipher.toString());
        VaultConfig config = VaultConfig.read(cipher.resolve(VaultConfig.FILE_NAME));
        assertEquals(100, config.longNameMax());
        try (MasterKey key = config.unlock(PASSWORD.toCharArray())) {
            assertEquals(100, key.names().longNameMax());
        }
    }

    // ---- gocryptfs writes, we read

    @Test
    void whatGocryptfsWritesIntoAVaultCreatedHereDecryptsHereByteForByte() throws Exception {
        Path cipher = Files.createDirectory(tmp.resolve("cipher"));
        Path mnt = Files.createDirectory(tmp.resolve("mnt"));
        createVault(cipher);
        Map<String, Object> expected = tree();
        try (Mount m = Mount.of(cipher, mnt, passfile(), tmp.resolve("gocryptfs.log"))) {
            writeThroughMount(Os.bytes(m.dir), expected);
        }
        Map<String, Object> decrypted;
        try (MasterKey key = VaultConfig.read(cipher.resolve(VaultConfig.FILE_NAME)).unlock(PASSWORD.toCharArray())) {
            decrypted = decryptTree(key, cipher, true);
        }
        assertTreesEqual(expected, decrypted, "");

        // gocryptfs grows a file by ftruncate without writing the blocks in between: they stay holes on disk.
        Path sparse = findEncrypted(cipher, "sparse");
        byte[] stored = Files.readAllBytes(sparse);
        assertEquals(ContentCipher.cipherSize(SPARSE_SIZE), stored.length);
        for (int block : new int[] {0, 1, 2, 4}) {
            int at = (int) ContentCipher.cipherOffset(block);
            assertArrayEquals(new byte[ContentCipher.CIPHER_BLOCK], Arrays.copyOfRange(stored, at, at + ContentCipher.CIPHER_BLOCK),
                    "block " + block + " is a hole");
        }
    }

    // ---- we write, gocryptfs reads

    @Test
    void whatIsEncryptedHereReadsBackThroughGocryptfsByteForByte() throws Exception {
        Path cipher = Files.createDirectory(tmp.resolve("cipher"));
        Path mnt = Files.createDirectory(tmp.resolve("mnt"));
        Map<String, Object> expected = tree();
        try (MasterKey key = createVault(cipher)) {
            encryptTree(key, cipher, expected);
        }
        try (Mount m = Mount.of(cipher, mnt, passfile(), tmp.resolve("gocryptfs.log"))) {
            assertTreesEqual(expected, readDir(Os.bytes(m.dir)), "");
        }
    }

    // ---- the tree

    /** Names (bytes as ISO-8859-1, one char per byte) to byte[] (a file), Link, or a Map (a directory). */
    private static Map<String, Object> tree() {
        Random random = new Random(9);
        Map<String, Object> root = new TreeMap<>();
        root.put("a", new byte[0]);
        root.put("fifteen-bytes..", bytes(random, 1));
        root.put("sixteen-bytes...", bytes(random, 4095));
        root.put("seventeen-bytes..", bytes(random, 4096));
        root.put(key(LONG_NAME), bytes(random, 4097));
        root.put(key(NOT_UTF8), bytes(random, 12289));
        byte[] sparse = new byte[(int) SPARSE_SIZE];
        System.arraycopy(bytes(random, 10), 0, sparse, (int) SPARSE_DATA_AT, 10);
        root.put("sparse", sparse);
        root.put("link", new Link("../target/ünïcödé".getBytes(UTF_8)));
        Map<String, Object> dir = new TreeMap<>();
        dir.put("inner", "hello\n".getBytes(US_ASCII));
        dir.put("link-with-a-long-target", new Link(name('t', 300)));
        Map<String, Object> deep = new TreeMap<>();
        deep.put("deep", bytes(random, 5000));
        dir.put(key(LONG_DIR_NAME), deep);
        root.put("dir", dir);
        root.put("empty-dir", new TreeMap<String, Object>());
        return root;
    }

    private record Link(byte[] target) {}

    @SuppressWarnings("unchecked")
    private static void assertTreesEqual(Map<String, Object> expected, Map<String, Object> actual, String path) {
        assertEquals(expected.keySet(), actual.keySet(), "names in /" + path);
        for (Map.Entry<String, Object> e : expected.entrySet()) {
            String where = "/" + path + e.getKey();
            Object got = actual.get(e.getKey());
            switch (e.getValue()) {
                case byte[] content -> {
                    assertTrue(got instanceof byte[], where + " is a file");
                    byte[] data = (byte[]) got;
                    assertEquals(content.length, data.length, where + " size");
                    assertArrayEquals(content, data, where + " content");
                }
                case Link link -> {
                    assertTrue(got instanceof Link, where + " is a symlink");
                    assertArrayEquals(link.target(), ((Link) got).target(), where + " target");
                }
                case Map<?, ?> dir -> {
                    assertTrue(got instanceof Map, where + " is a directory");
                    assertTreesEqual((Map<String, Object>) dir, (Map<String, Object>) got, path + e.getKey() + "/");
                }
                default -> fail("unexpected node " + e.getValue());
            }
        }
    }

    // ---- through the mount (names as raw bytes: one of them is not UTF-8)

    @SuppressWarnings("unchecked")
    private static void writeThroughMount(byte[] dir, Map<String, Object> tree) {
        for (Map.Entry<String, Object> e : tree.entrySet()) {
            byte[] path = child(dir, bytes(e.getKey()));
            switch (e.getValue()) {
                case byte[] content -> {
                    int fd = check(Os.open(path, Posix.O_WRONLY | Posix.O_CREAT | Posix.O_EXCL, 0644), "create", path);
                    try {
                        if (e.getKey().equals("sparse")) {
                            check(Os.ftruncate(fd, SPARSE_SIZE), "ftruncate", path);
                            check(Os.pwrite(fd, Arrays.copyOfRange(content, (int) SPARSE_DATA_AT, (int) SPARSE_DATA_AT + 10), SPARSE_DATA_AT), "pwrite", path);
                        } else if (content.length > 0) {
                            assertEquals(content.length, Os.pwrite(fd, content, 0), "pwrite");
                        }
                    } finally {
                        Os.close(fd);
                    }
                }
                case Link link -> check(Os.symlink(link.target(), path), "symlink", path);
                case Map<?, ?> sub -> {
                    check(Os.mkdir(path, 0755), "mkdir", path);
                    writeThroughMount(path, (Map<String, Object>) sub);
                }
                default -> fail("unexpected node");
            }
        }
    }

    private static Object readNode(byte[] path) {
        Os.StatResult st = Os.lstat(path);
        return switch (st.mode() & Posix.S_IFMT) {
            case Posix.S_IFDIR -> readDir(path);
            case Posix.S_IFLNK -> {
                byte[] target = Os.readlink(path);
                assertEquals(target.length, st.size(), "a symlink's size is its target's length");
                yield new Link(target);
            }
            case Posix.S_IFREG -> {
                int fd = check(Os.open(path, Posix.O_RDONLY, 0), "open", path);
                try {
                    byte[] data = Os.pread(fd, (int) st.size() + 1, 0);
                    assertEquals(st.size(), data.length, "stat size matches what reads");
                    yield data;
                } finally {
                    Os.close(fd);
                }
            }
            default -> throw new AssertionError("unexpected mode " + Integer.toOctalString(st.mode()));
        };
    }

    /** Through a descriptor, not Os.listBytes, which takes a Path: a name on the way may not be UTF-8. */
    private static Map<String, Object> readDir(byte[] path) {
        int fd = check(Os.open(path, Posix.O_RDONLY | Posix.O_DIRECTORY, 0), "open", path);
        try {
            Map<String, Object> tree = new TreeMap<>();
            List<byte[]> names = new ArrayList<>();
            for (List<byte[]> batch; !(batch = Os.getdents(fd, 32 * 1024)).isEmpty(); ) {
                names.addAll(batch);
            }
            for (byte[] name : names) {
                if (!Arrays.equals(name, ".".getBytes(US_ASCII)) && !Arrays.equals(name, "..".getBytes(US_ASCII))) {
                    tree.put(key(name), readNode(child(path, name)));
                }
            }
            return tree;
        } finally {
            Os.close(fd);
        }
    }

    // ---- directly in the ciphertext, with this package's classes

    /** Decrypts every name, file and link under {@code dir}; {@code root} says whether gocryptfs.conf belongs here. */
    private static Map<String, Object> decryptTree(MasterKey key, Path dir, boolean root) throws IOException {
        byte[] iv = DirIv.read(dir);
        Map<String, Object> tree = new TreeMap<>();
        List<byte[]> entries = Os.listBytes(dir);
        for (byte[] entry : entries) {
            String stored = new String(entry, US_ASCII);
            if (stored.equals(".") || stored.equals("..") || stored.equals(DirIv.FILE_NAME)
                    || (root && stored.equals(VaultConfig.FILE_NAME))) {
                continue;
            }
            if (NameCipher.isLongNameFile(entry)) {
                assertEquals("r--r--r--", mode(dir.resolve(stored)), stored);
                assertTrue(Files.exists(dir.resolve(stored.substring(0, stored.length() - 5)), LinkOption.NOFOLLOW_LINKS),
                        stored + " belongs to an entry");
                continue;
            }
            byte[] encrypted = entry;
            if (NameCipher.isLongName(entry)) {
                encrypted = Files.readAllBytes(dir.resolve(stored + NameCipher.LONG_NAME_SUFFIX));
                assertArrayEquals(entry, NameCipher.longNameFor(encrypted), "the long name is the hash of the .name file");
                assertTrue(key.names().mustStoreLong(encrypted), stored);
            } else {
                assertFalse(key.names().mustStoreLong(entry), stored);
            }
            byte[] plain = key.names().decrypt(encrypted, iv);
            Path p = dir.resolve(stored);
            if (Files.isSymbolicLink(p)) {
                tree.put(key(plain), new Link(key.content().decryptSymlink(Files.readSymbolicLink(p).toString().getBytes(US_ASCII))));
            } else if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
                assertEquals("r--r--r--", mode(p.resolve(DirIv.FILE_NAME)));
                tree.put(key(plain), decryptTree(key, p, false));
            } else {
                tree.put(key(plain), decryptFile(key, p));
            }
        }
        return tree;
    }

    private static byte[] decryptFile(MasterKey key, Path file) throws IOException {
        byte[] stored = Files.readAllBytes(file);
        long plainSize = ContentCipher.plainSize(stored.length);
        assertTrue(ContentCipher.isValidCipherSize(stored.length), file + " size " + stored.length);
        if (stored.length == 0) {
            return stored;
        }
        byte[] fileId = ContentCipher.parseHeader(stored);
        int body = stored.length - ContentCipher.HEADER_SIZE;
        byte[] plain = new byte[ContentCipher.decryptedLength(body)];
        int n = key.content().decryptBlocks(stored, ContentCipher.HEADER_SIZE, body, 0, fileId, plain, 0);
        assertEquals(plainSize, n, file + ": plainSize agrees with what decrypts");
        return Arrays.copyOf(plain, n);
    }

    /** Writes {@code tree} into the ciphertext directory {@code dir} (which has its diriv) as gocryptfs would. */
    @SuppressWarnings("unchecked")
    private static void encryptTree(MasterKey key, Path dir, Map<String, Object> tree) throws IOException {
        byte[] iv = DirIv.read(dir);
        for (Map.Entry<String, Object> e : tree.entrySet()) {
            byte[] encrypted = key.names().encrypt(bytes(e.getKey()), iv);
            byte[] disk = key.names().diskName(encrypted);
            if (key.names().mustStoreLong(encrypted)) {
                Path nameFile = dir.resolve(new String(NameCipher.longNameFileFor(disk), US_ASCII));
                Files.write(nameFile, encrypted, StandardOpenOption.CREATE_NEW);
                Files.setPosixFilePermissions(nameFile, PosixFilePermissions.fromString("r--r--r--"));
            }
            Path p = dir.resolve(new String(disk, US_ASCII));
            switch (e.getValue()) {
                case byte[] content -> encryptFile(key, p, content);
                case Link link -> Files.createSymbolicLink(p, Path.of(new String(key.content().encryptSymlink(link.target()), US_ASCII)));
                case Map<?, ?> sub -> {
                    Files.createDirectory(p);
                    DirIv.create(p);
                    encryptTree(key, p, (Map<String, Object>) sub);
                }
                default -> fail("unexpected node");
            }
        }
    }

    /** Full blocks of zeros are left as holes in a sparse file, as gocryptfs leaves them; every other block is written. */
    private static void encryptFile(MasterKey key, Path file, byte[] content) throws IOException {
        try (FileChannel out = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            if (content.length == 0) {
                return;
            }
            byte[] fileId = ContentCipher.newFileId();
            out.write(ByteBuffer.wrap(ContentCipher.header(fileId)), 0);
            byte[] block = new byte[ContentCipher.CIPHER_BLOCK];
            for (int at = 0; at < content.length; at += ContentCipher.PLAIN_BLOCK) {
                int length = Math.min(ContentCipher.PLAIN_BLOCK, content.length - at);
                long blockNo = ContentCipher.blockNo(at);
                if (length == ContentCipher.PLAIN_BLOCK && Arrays.equals(content, at, at + length, new byte[length], 0, length)) {
                    continue;
                }
                int n = key.content().encryptBlock(content, at, length, blockNo, fileId, block, 0);
                out.write(ByteBuffer.wrap(block, 0, n), ContentCipher.cipherOffset(blockNo));
            }
            long size = ContentCipher.cipherSize(content.length);
            if (out.size() < size) {
                // The last block was a hole: a zero byte at the end gives the file its size and keeps the hole.
                out.write(ByteBuffer.wrap(new byte[1]), size - 1);
            }
        }
    }

    private Path findEncrypted(Path cipher, String plainName) throws Exception {
        try (MasterKey key = VaultConfig.read(cipher.resolve(VaultConfig.FILE_NAME)).unlock(PASSWORD.toCharArray())) {
            return cipher.resolve(new String(key.names().encrypt(plainName.getBytes(US_ASCII), DirIv.read(cipher)), US_ASCII));
        }
    }

    // ---- helpers

    private MasterKey createVault(Path cipher) throws IOException {
        VaultConfig.Created created = VaultConfig.create(PASSWORD.toCharArray(), 10);
        created.config().write(cipher.resolve(VaultConfig.FILE_NAME));
        DirIv.create(cipher);
        return created.masterKey();
    }

    private Path passfile() throws IOException {
        Path file = tmp.resolve("passfile");
        if (!Files.exists(file)) {
            Files.writeString(file, PASSWORD + "\n", UTF_8);
        }
        return file;
    }

    private static String mode(Path p) throws IOException {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(p, LinkOption.NOFOLLOW_LINKS));
    }

    private static String run(String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            fail(String.join(" ", command) + " did not finish in 60 s");
        }
        String output = new String(p.getInputStream().readAllBytes(), UTF_8);
        assertEquals(0, p.exitValue(), String.join(" ", command) + ": " + output);
        return output;
    }

    /** gocryptfs in the foreground on {@code dir}; closing unmounts it and waits for the process. */
    private record Mount(Process process, Path dir, Path log) implements AutoCloseable {
        static Mount of(Path cipher, Path dir, Path passfile, Path log) throws IOException, InterruptedException {
            Process p = new ProcessBuilder(GOCRYPTFS.toString(), "-fg", "-passfile", passfile.toString(), cipher.toString(), dir.toString())
                    .redirectErrorStream(true).redirectOutput(log.toFile()).start();
            Mount m = new Mount(p, dir, log);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (!m.mounted()) {
                if (!p.isAlive() || System.nanoTime() > deadline) {
                    m.close();
                    fail("gocryptfs did not mount " + dir + ": " + Files.readString(log));
                }
                Thread.sleep(20);
            }
            return m;
        }

        boolean mounted() throws IOException {
            for (String line : Files.readAllLines(Path.of("/proc/self/mounts"))) {
                String[] fields = line.split(" ");
                if (fields.length > 2 && fields[1].equals(dir.toString()) && fields[2].startsWith("fuse")) {
                    return true;
                }
            }
            return false;
        }

        @Override
        public void close() throws IOException, InterruptedException {
            try {
                if (mounted()) {
                    Process u = new ProcessBuilder(FUSERMOUNT.toString(), "-u", dir.toString()).redirectErrorStream(true).start();
                    if (!u.waitFor(30, TimeUnit.SECONDS) || u.exitValue() != 0) {
                        u.destroyForcibly();
                        new ProcessBuilder(FUSERMOUNT.toString(), "-u", "-z", dir.toString()).start().waitFor(30, TimeUnit.SECONDS);
                    }
                }
            } finally {
                if (!process.waitFor(30, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                }
            }
        }
    }

    private static int check(long rc, String call, byte[] path) {
        if (rc < 0) {
            fail(call + " " + new String(path, ISO_8859_1) + ": " + Errno.name((int) -rc));
        }
        return (int) rc;
    }

    private static byte[] child(byte[] dir, byte[] name) {
        byte[] r = Arrays.copyOf(dir, dir.length + 1 + name.length);
        r[dir.length] = '/';
        System.arraycopy(name, 0, r, dir.length + 1, name.length);
        return r;
    }

    private static String key(byte[] name) {
        return new String(name, ISO_8859_1);
    }

    private static byte[] bytes(String key) {
        return key.getBytes(ISO_8859_1);
    }

    private static byte[] bytes(Random random, int n) {
        byte[] b = new byte[n];
        random.nextBytes(b);
        return b;
    }

    private static byte[] name(char c, int length) {
        byte[] b = new byte[length];
        for (int i = 0; i < length; i++) {
            b[i] = (byte) (i % 10 == 9 ? '0' + i / 10 % 10 : c);
        }
        return b;
    }
}
