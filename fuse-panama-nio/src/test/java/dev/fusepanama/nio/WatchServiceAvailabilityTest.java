package dev.fusepanama.nio;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.common.jimfs.Configuration;
import com.google.common.jimfs.Jimfs;
import java.io.OutputStream;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What {@code watchChanges()} answers for a provider with a watch service and one without, before any mount. */
class WatchServiceAvailabilityTest {
    @TempDir
    Path tmp;

    @Test
    void zipfsHasNoWatchServiceAndSaysSo() throws Exception {
        Path archive = tmp.resolve("a.zip");
        try (OutputStream out = Files.newOutputStream(archive); ZipOutputStream zip = new ZipOutputStream(out)) {
            zip.putNextEntry(new ZipEntry("file.txt"));
            zip.write("x".getBytes());
            zip.closeEntry();
        }
        try (FileSystem zipfs = FileSystems.newFileSystem(archive, Map.of("accessMode", "readOnly"))) {
            assertFalse(NioFileSystem.of(zipfs.getPath("/")).watchChanges());
        }
    }

    @Test
    void theDefaultProviderAndJimfsHaveOne() throws Exception {
        assertTrue(NioFileSystem.of(tmp).watchChanges());
        try (FileSystem jimfs = Jimfs.newFileSystem(Configuration.unix())) {
            assertTrue(NioFileSystem.of(jimfs.getPath("/")).watchChanges());
        }
    }
}
