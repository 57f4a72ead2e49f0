package dev.fusepanama.vault;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fusepanama.Errno;
import dev.fusepanama.MountOptions;
import dev.fusepanama.Posix;
import dev.fusepanama.inode.InodeMount;
import dev.fusepanama.libc.ThreadContext;
import dev.fusepanama.libc.Xattr;
import dev.fusepanama.testkit.MountTest;
import dev.fusepanama.testkit.Os;
import dev.fusepanama.testkit.TestMount;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * What an application embedding vaults relies on: several vaults open at once and closed
 * repeatedly in one JVM leave nothing behind; a change another program makes in the cipher
 * directory (here a second mount of the same vault, as a sync client would write it) is seen
 * through the first mount within a second, with kernel caching on; /proc/mounts names the vault.
 */
@MountTest
@Timeout(120)
class VaultEmbeddingTest {
    private static final char[] PASSWORD = "embedded".toCharArray();

    @TempDir
    Path tmp;

    /** Mounts the vault in {@code cipher} at a fresh directory; the caller closes it. */
    private static Mounted mount(Path cipher) throws Exception {
        Path at = Files.createTempDirectory("vault-embed-");
        VaultFileSystem fs = Vault.unlock(cipher, PASSWORD);
        InodeMount m;
        try {
            m = Vault.mount(fs, at, Vault.mountOptions(cipher).build());
        } catch (IOException | RuntimeException e) {
            fs.close();
            Files.deleteIfExists(at);
            throw e;
        }
        return new Mounted(at, m, fs);
    }

    private record Mounted(Path root, InodeMount mount, VaultFileSystem fs) implements AutoCloseable {
        @Override
        public void close() throws Exception {
            try {
                mount.close();
            } finally {
                if (mount.isMounted()) TestMount.forceUnmount(root);
                Files.deleteIfExists(root);
            }
        }
    }

    /** Waits up to a second for {@code condition}; how long it took. */
    private static long within(String what, Callable<Boolean> condition) throws Exception {
        long start = System.nanoTime();
        while (!condition.call()) {
            if (System.nanoTime() - start > 1_000_000_000L) throw new AssertionError(what + " not seen within a second");
            Thread.sleep(10);
        }
        return (System.nanoTime() - start) / 1_000_000;
    }

    private static String readOrMissing(Path p) throws IOException {
        try {
            return Files.readString(p);
        } catch (NoSuchFileException e) {
            return null;
        }
    }

    /**
     * The application's thread that mounts keeps its umask: only the vault's request threads get
     * one of 0 (files it then creates anywhere are not made world-writable).
     */
    @Test
    void mountingLeavesTheCallingThreadsUmaskAlone() throws Exception {
        Path cipher = tmp.resolve("cipher");
        Vault.create(cipher, PASSWORD, 10);
        java.util.concurrent.CompletableFuture<Integer> after = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
            // A filesystem context of this thread's own, so that its umask is the test's alone.
            assertEquals(0, ThreadContext.threadUmask(022));
            try (Mounted m = mount(cipher)) {
                Files.writeString(m.root().resolve("f"), "x");
                Files.createDirectory(m.root().resolve("d"));
                assertEquals("rw-r--r--", java.nio.file.attribute.PosixFilePermissions.toString(
                        Files.getPosixFilePermissions(m.root().resolve("f"))), "the caller's umask, applied once");
                return ThreadContext.umask(022);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }, r -> new Thread(r, "application thread").start());
        assertEquals(022, after.get(60, java.util.concurrent.TimeUnit.SECONDS), "the mounting thread's umask");
    }

    @Test
    void changesMadeInTheCipherDirectoryAreSeenThroughTheMountWithinASecond() throws Exception {
        Path cipher = tmp.resolve("cipher");
        Vault.create(cipher, PASSWORD, 10);
        try (Mounted ours = mount(cipher); Mounted other = mount(cipher)) {
            Path f = ours.root().resolve("f");
            Files.writeString(f, "one");
            Files.createDirectories(ours.root().resolve("dir/sub"));
            Files.writeString(ours.root().resolve("dir/sub/inner"), "inner");
            // Cached by the kernel now: names, attributes and data.
            assertEquals("one", Files.readString(f));
            assertEquals(3, Files.size(f));
            assertEquals("inner", Files.readString(ours.root().resolve("dir/sub/inner")));

            Files.writeString(other.root().resolve("f"), "two, and longer");
            // At once, before the watcher has told the kernel: stale, perhaps, but never an error.
            Files.readString(f);
            within("a file rewritten", () -> "two, and longer".equals(readOrMissing(f)));
            assertEquals(15, Files.size(f));

            Path tmpFile = other.root().resolve("f.sync-tmp");
            Files.writeString(tmpFile, "three: replaced by rename");
            Files.move(tmpFile, other.root().resolve("f"), java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                    java.nio.file.StandardCopyOption.ATOMIC_MOVE);
            Files.readString(f);
            within("a file replaced by rename", () -> "three: replaced by rename".equals(readOrMissing(f)));

            // A miss and a listing the kernel keeps (negative entries, kept listings) until the watcher tells it.
            assertFalse(Files.exists(ours.root().resolve("g")));
            try (Stream<Path> list = Files.list(ours.root())) {
                assertFalse(list.anyMatch(p -> p.getFileName().toString().equals("g")));
            }
            Files.writeString(other.root().resolve("g"), "new");
            within("a new file", () -> "new".equals(readOrMissing(ours.root().resolve("g"))));
            try (Stream<Path> list = Files.list(ours.root())) {
                assertTrue(list.anyMatch(p -> p.getFileName().toString().equals("g")));
            }

            Files.delete(other.root().resolve("g"));
            within("a removed file", () -> !Files.exists(ours.root().resolve("g")));

            Files.move(other.root().resolve("dir/sub"), other.root().resolve("moved"));
            within("a moved directory", () -> "inner".equals(readOrMissing(ours.root().resolve("moved/inner"))));
            within("a moved directory's old name", () -> !Files.exists(ours.root().resolve("dir/sub")));

            // Below the top, and a change of attributes only.
            Files.writeString(other.root().resolve("moved/inner"), "inner, rewritten");
            within("a file rewritten in a subdirectory",
                    () -> "inner, rewritten".equals(readOrMissing(ours.root().resolve("moved/inner"))));
            Files.setPosixFilePermissions(other.root().resolve("moved/inner"),
                    java.nio.file.attribute.PosixFilePermissions.fromString("r--------"));
            within("a chmod", () -> Files.getPosixFilePermissions(ours.root().resolve("moved/inner"))
                    .equals(java.nio.file.attribute.PosixFilePermissions.fromString("r--------")));

            // The vault's own changes keep the kernel's caches: no invalidation storm.
            Files.writeString(ours.root().resolve("h"), "mine");
            assertEquals("mine", Files.readString(ours.root().resolve("h")));
        }
    }

    @Test
    void lockNowEndsTheMountAtOnceEvenWithFilesOpenAndWipesTheKey() throws Exception {
        Path cipher = tmp.resolve("cipher");
        Vault.create(cipher, PASSWORD, 10);
        VaultFileSystem fs = Vault.unlock(cipher, PASSWORD);
        Path at = Files.createTempDirectory("vault-embed-");
        InodeMount m = Vault.mount(fs, at, Vault.mountOptions(cipher).build());
        int fd = -1;
        try {
            Files.writeString(at.resolve("secret"), "plaintext");
            fd = Os.open(at.resolve("secret"), Posix.O_RDONLY);
            assertEquals("plaintext", new String(Os.pread(fd, 100, 0), StandardCharsets.UTF_8));
            long start = System.nanoTime();
            assertTrue(fs.lockNow(java.time.Duration.ofSeconds(10)), "the session ended");
            assertTrue(System.nanoTime() - start < 5_000_000_000L, "without waiting for the open file");
            assertTrue(fs.isLocked());
            assertFalse(m.isMounted());
            assertFalse(Files.readString(Path.of("/proc/self/mounts")).contains(" " + at + " "));
            int held = fd;
            assertThrows(Os.OsException.class, () -> Os.pread(held, 100, 0),
                    "the open file gives errors, not the plaintext");
        } finally {
            if (fd >= 0) Os.close(fd);
            if (m.isMounted()) m.close();
            Files.deleteIfExists(at);
        }
    }

    @Test
    void severalVaultsOpenAndClosedRepeatedlyInOneJvmLeaveNothingBehind() throws Exception {
        List<Path> ciphers = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            Path c = tmp.resolve("cipher" + i);
            Vault.create(c, PASSWORD, 10);
            ciphers.add(c);
        }
        long fdsBefore = openDescriptors();
        for (int round = 0; round < 5; round++) {
            List<Mounted> open = new ArrayList<>();
            try {
                for (Path c : ciphers) open.add(mount(c));
                for (int i = 0; i < open.size(); i++) {
                    Path file = open.get(i).root().resolve("round" + round);
                    Files.writeString(file, "vault " + i + " round " + round);
                }
                for (int i = 0; i < open.size(); i++) {
                    assertEquals("vault " + i + " round " + round, Files.readString(open.get(i).root().resolve("round" + round)));
                    try (Stream<Path> list = Files.list(open.get(i).root())) {
                        assertEquals(round + 1, list.count(), "each vault has only its own files");
                    }
                }
                for (Mounted m : open) assertTrue(m.fs().threadBuffers() > 0, "the workers' buffers are the vault's own");
            } finally {
                for (Mounted m : open) m.close();
            }
            for (Mounted m : open) assertFalse(m.mount().isMounted());
            // Freed (wiped) at unmount, not whenever a full collection finds them: 2 MiB per worker.
            for (Mounted m : open) assertEquals(0, m.fs().threadBuffers());
        }
        String mounts = Files.readString(Path.of("/proc/self/mounts"));
        for (Path c : ciphers) assertFalse(mounts.contains(c.toString()), "nothing of " + c + " stays mounted");
        // Descriptors of the JDK's watch services and worker threads may linger a little; not one per round.
        long fdsAfter = openDescriptors();
        assertTrue(fdsAfter - fdsBefore < 10, () -> "descriptors before " + fdsBefore + ", after " + fdsAfter);
    }

    private static long openDescriptors() throws IOException {
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            return fds.count();
        }
    }

    @Test
    void procMountsNamesTheCipherDirectoryAndTheVaultType() throws Exception {
        Path cipher = tmp.resolve("cipher");
        Vault.create(cipher, PASSWORD, 10);
        try (Mounted m = mount(cipher)) {
            String line = Files.readAllLines(Path.of("/proc/self/mounts"), StandardCharsets.UTF_8).stream()
                    .filter(l -> l.contains(" " + m.root() + " ")).findFirst().orElseThrow();
            assertEquals(cipher.toString(), line.split(" ")[0]);
            assertEquals("fuse.vault", line.split(" ")[2]);
            assertTrue(line.split(" ")[3].contains("nosuid"), line);
            // Asked before every write; on a nosuid mount answered without a look at the disk.
            Path f = m.root().resolve("f");
            Files.writeString(f, "x");
            try (java.lang.foreign.Arena a = java.lang.foreign.Arena.ofConfined()) {
                java.lang.foreign.MemorySegment buf = a.allocate(64);
                assertEquals(-Errno.EOPNOTSUPP, Xattr.lgetxattr(a.allocateFrom(f.toString()), a.allocateFrom("security.capability"), buf, 64));
                assertEquals(-Errno.ENODATA, Xattr.lgetxattr(a.allocateFrom(f.toString()), a.allocateFrom("user.absent"), buf, 64));
            }
        }
    }

    @Test
    void aClosedVaultHasWipedItsKey() throws Exception {
        Path cipher = tmp.resolve("cipher");
        Vault.create(cipher, PASSWORD, 10);
        VaultFileSystem fs = Vault.unlock(cipher, PASSWORD);
        InodeMount m = Vault.mount(fs, Files.createTempDirectory("vault-embed-"), MountOptions.builder().build());
        try {
            Files.writeString(m.mountpoint().resolve("x"), "x");
            assertFalse(fs.isLocked());
        } finally {
            m.close();
            Files.deleteIfExists(m.mountpoint());
        }
        assertTrue(fs.isLocked(), "the key is wiped when the mount ends");
    }
}
