package dev.fusepanama.vault.crypto;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** gocryptfs.diriv: written once, read-only, and read back only when it can be one. */
class DirIvTest {
    @TempDir
    Path dir;

    @Test
    void aNewIvIsSixteenRandomBytesInAReadOnlyFileThatReadsBack() throws Exception {
        byte[] iv = DirIv.create(dir);
        Path file = dir.resolve("gocryptfs.diriv");
        assertEquals("r--r--r--", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
        assertArrayEquals(iv, Files.readAllBytes(file));
        assertArrayEquals(iv, DirIv.read(dir));
        assertThrows(FileAlreadyExistsException.class, () -> DirIv.create(dir));
        assertArrayEquals(iv, DirIv.read(dir), "a second create leaves the first IV alone");
    }

    @Test
    void ivFilesGocryptfsWouldRefuseAreRefused() throws Exception {
        Path file = dir.resolve(DirIv.FILE_NAME);
        for (byte[] content : new byte[][] {new byte[15], new byte[17], new byte[16], new byte[0]}) {
            Files.deleteIfExists(file);
            Files.write(file, content);
            IOException e = assertThrows(IOException.class, () -> DirIv.read(dir), content.length + " bytes");
            assertTrue(e.getMessage().contains(file.toString()), e.getMessage());
        }
    }

    @Test
    void aSymlinkInPlaceOfTheIvFileIsNotFollowed() throws Exception {
        Path elsewhere = Files.createDirectory(dir.resolve("elsewhere"));
        DirIv.create(elsewhere);
        Path inner = Files.createDirectory(dir.resolve("inner"));
        Files.createSymbolicLink(inner.resolve(DirIv.FILE_NAME), elsewhere.resolve(DirIv.FILE_NAME));
        assertThrows(IOException.class, () -> DirIv.read(inner));
    }
}
