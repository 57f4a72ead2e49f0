package dev.fusepanama.cryptomator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.fusepanama.nio.NioFileSystem;
import dev.fusepanama.testkit.MountTest;
import dev.fusepanama.testkit.TestMount;
import dev.fusepanama.testkit.Tmpfs;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A vault whose store fills up: cryptofs keeps written chunks in memory and writes them out when
 * the channel is forced or closed, so the store's ENOSPC comes late. A program must still be told,
 * at the latest by close(2), as a kernel filesystem tells it; a close that succeeds keeps the data.
 */
@MountTest
@Timeout(value = 120, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class StoreFullTest {
    private Path tmpfs;
    private FileSystem cryptofs;

    @BeforeEach
    void smallStore() throws Exception {
        tmpfs = Tmpfs.mount("cryptofs-full", 16);
        Path vault = Files.createDirectory(tmpfs.resolve("vault"));
        Vaults.create(vault, "full");
        cryptofs = Vaults.open(vault, "full", false);
    }

    @AfterEach
    void cleanUp() throws Exception {
        try {
            if (cryptofs != null) cryptofs.close();
        } finally {
            Tmpfs.unmount(tmpfs);
        }
    }

    @Test
    void aWriteTheStoreHasNoRoomForFailsWithEnospcByCloseAtTheLatest() throws Exception {
        NioFileSystem fs = NioFileSystem.of(cryptofs.getPath("/"));
        try (TestMount m = TestMount.mount(fs, fs.mountOptions().build())) {
            Path big = m.root().resolve("big");
            IOException failed = assertThrows(IOException.class, () -> {
                try (FileChannel c = FileChannel.open(big, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                    ByteBuffer mib = ByteBuffer.allocate(1 << 20);
                    for (int i = 0; i < 32; i++) c.write(mib.clear());
                }
            });
            assertEquals("No space left on device", failed.getMessage(), "the store's own errno, not EIO");

            // What a close that succeeded reports is kept.
            Path small = m.root().resolve("small");
            Files.delete(big);
            Files.write(small, new byte[] {1, 2, 3});
            assertEquals(3, Files.readAllBytes(small).length);
            assertEquals(3, Files.readAllBytes(cryptofs.getPath("/small")).length);
        }
    }
}
