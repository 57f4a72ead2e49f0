package dev.fusepanama.vault;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.fusepanama.Errno;
import dev.fusepanama.Posix;
import dev.fusepanama.libc.Libc;
import dev.fusepanama.testkit.Ext4;
import dev.fusepanama.testkit.MountTest;
import dev.fusepanama.testkit.Os;
import dev.fusepanama.testkit.TestMount;
import dev.fusepanama.testkit.Tmpfs;
import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A vault whose disk fills: the write that meets the full disk gets a short count or ENOSPC, and
 * every byte written before, in that file and the others, still reads back, also after a new
 * mount (as gocryptfs keeps it: room is reserved before a block is rewritten).
 */
@MountTest
@Timeout(120)
class VaultFullDiskTest {
    private static final char[] PASSWORD = "full".toCharArray();
    private Path disk;

    @BeforeEach
    void smallDisk() throws Exception {
        assumeTrue(Libc.geteuid() == 0, "a tmpfs of the test's own needs root");
        disk = Tmpfs.mount("vault-full", 2);
    }

    @AfterEach
    void unmount() throws Exception {
        if (disk != null) Tmpfs.unmount(disk);
    }

    private static TestMount mount(Path cipher) throws Exception {
        return TestMount.mount(Vault.unlock(cipher, PASSWORD), Vault.mountOptions(cipher).build());
    }

    @Test
    void anAppendThatMeetsAFullDiskLeavesEveryAcknowledgedByteReadable() throws Exception {
        Path cipher = Files.createDirectory(disk.resolve("cipher"));
        Vault.create(cipher, PASSWORD, 10);
        byte[][] files = new byte[3][];
        ByteArrayOutputStream appended = new ByteArrayOutputStream();
        try (TestMount m = mount(cipher)) {
            for (int i = 0; i < 3; i++) {
                files[i] = VaultTree.data(300_000, i);
                Files.write(m.path("f" + i), files[i]);
            }
            int fd = Os.open(m.path("f0"), Posix.O_WRONLY | Posix.O_APPEND);
            long rc = 0;
            for (int round = 0; round < 1000; round++) {
                byte[] chunk = VaultTree.data(10_000, 100 + round);
                rc = Os.write(fd, chunk);
                if (rc < 0) break;
                appended.write(chunk, 0, (int) rc);
                if (rc < chunk.length) {
                    rc = Os.write(fd, chunk); // what a program does after a short write: asks again
                    break;
                }
            }
            assertEquals(0, Os.close(fd));
            assertTrue(rc == -Errno.ENOSPC, "the disk filled: " + rc);
            assertTrue(appended.size() > 0, "something fit before it filled");
            check(m, files, appended.toByteArray());
        }
        try (TestMount m = mount(cipher)) {
            check(m, files, appended.toByteArray());
        }
    }

    /**
     * A truncate up needs the old last block padded and a new one written: with room for the
     * first only, it is refused whole, and the file is as it was.
     */
    @Test
    void aTruncateUpThatMeetsAFullDiskLeavesTheFileAsItWas() throws Exception {
        Path cipher = Files.createDirectory(disk.resolve("cipher"));
        Vault.create(cipher, PASSWORD, 10);
        byte[] small = VaultTree.data(5000, 7);
        try (TestMount m = mount(cipher)) {
            Files.write(m.path("small"), small);
            // The disk full but for one page: room for the old last block padded, none for the new one.
            Path filler = disk.resolve("filler");
            int fd = Os.open(filler, Posix.O_CREAT | Posix.O_WRONLY);
            while (Os.write(fd, new byte[4096]) > 0) {
                // until the disk is full
            }
            Os.close(fd);
            assertEquals(0, Os.truncate(Os.bytes(filler), Files.size(filler) - 4096));
            int rc = Os.truncate(VaultTree.path(m.root(), "small"), (1 << 20) + 1000);
            assertEquals(-Errno.ENOSPC, rc, "no room for the blocks it must write");
            assertEquals(small.length, Files.size(m.path("small")), "the size as it was");
            assertArrayEquals(small, Files.readAllBytes(m.path("small")), "and every byte");
        }
        try (TestMount m = mount(cipher)) {
            assertArrayEquals(small, Files.readAllBytes(m.path("small")), "also after a new mount");
        }
    }

    /**
     * A change that fails after the old partial last block was rewritten whole (padded) must not
     * cut that block when it puts the size back: here ext4 refuses the ciphertext's size (over
     * 16 TiB) for a plaintext size it would take, after the pad.
     */
    @Test
    void aTruncateRefusedAfterThePadKeepsTheOldLastBlockReadable() throws Exception {
        Path ext4 = Ext4.mount("vault-efbig", 32);
        try {
            Path cipher = Files.createDirectory(ext4.resolve("cipher"));
            Vault.create(cipher, PASSWORD, 10);
            byte[] small = VaultTree.data(100, 8);
            long huge = (1L << 44) - (1L << 36); // a whole number of blocks; its ciphertext is past ext4's 16 TiB
            try (TestMount m = mount(cipher)) {
                Files.write(m.path("small"), small);
                int rc = Os.truncate(VaultTree.path(m.root(), "small"), huge);
                assertTrue(rc < 0, "refused: " + rc);
            }
            try (TestMount m = mount(cipher)) {
                byte[] back = Files.readAllBytes(m.path("small"));
                assertArrayEquals(small, Arrays.copyOf(back, small.length), "what it held reads back");
                for (int i = small.length; i < back.length; i++) assertEquals(0, back[i], "zeros after it, at " + i);
            }
        } finally {
            Ext4.unmount(ext4);
        }
    }

    private static void check(TestMount m, byte[][] files, byte[] appended) throws Exception {
        byte[] f0 = new byte[files[0].length + appended.length];
        System.arraycopy(files[0], 0, f0, 0, files[0].length);
        System.arraycopy(appended, 0, f0, files[0].length, appended.length);
        assertEquals(f0.length, Files.size(m.path("f0")), "f0's size is what write acknowledged");
        assertArrayEquals(f0, Files.readAllBytes(m.path("f0")), "f0: what it had and every byte appended");
        for (int i = 1; i < 3; i++) {
            assertArrayEquals(files[i], Files.readAllBytes(m.path("f" + i)), "f" + i);
        }
    }
}
