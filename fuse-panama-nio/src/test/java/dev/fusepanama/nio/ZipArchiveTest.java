package dev.fusepanama.nio;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.fusepanama.inode.InodeMount;
import dev.fusepanama.testkit.MountTest;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * A zip archive (the JDK's jdk.zipfs) mounted read-only, as {@code ./fuse-panama zip} mounts one:
 * ordinary tools see exactly the tree that was archived, and nothing can be written.
 */
@MountTest
@Timeout(value = 120, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ZipArchiveTest {
    @TempDir
    Path tmp;

    @Test
    void toolsSeeTheArchivedTreeAndWritesAreRefused() throws Exception {
        Path tree = Files.createDirectories(tmp.resolve("tree"));
        Random r = new Random(7);
        for (int d = 0; d < 5; d++) {
            Path dir = Files.createDirectories(tree.resolve("dir" + d).resolve("sub"));
            for (int f = 0; f < 20; f++) {
                byte[] data = new byte[r.nextInt(d == 4 ? 3 << 20 : 40_000)];
                r.nextBytes(data);
                Files.write((f % 2 == 0 ? dir : dir.getParent()).resolve("file " + f + ".bin"), data);
            }
        }
        Files.createDirectories(tree.resolve("empty"));
        Files.writeString(tree.resolve("grüße.txt"), "a name that is not ASCII\n");
        Path archive = tmp.resolve("tree.zip");
        zip(tree, archive);

        Path mnt = Files.createDirectory(tmp.resolve("mnt"));
        try (FileSystem zipfs = FileSystems.newFileSystem(archive, Map.of("accessMode", "readOnly"))) {
            NioFileSystem fs = NioFileSystem.of(zipfs.getPath("/"));
            assertTrue(fs.mountOptions().build().readOnly(), "a zip opened for reading is mounted read-only");
            try (InodeMount m = fs.mount(mnt)) {
                assertEquals("", run("diff", "-r", tree.toString(), mnt.toString()));
                assertEquals(run("sh", "-c", "cd " + tree + " && find . | sort"), run("sh", "-c", "cd " + mnt + " && find . | sort"));
                assertEquals(run("sh", "-c", "cd " + tree + " && find . -type f -printf '%s %p\\n' | sort"),
                        run("sh", "-c", "cd " + mnt + " && find . -type f -printf '%s %p\\n' | sort"));
                assertEquals(run("sh", "-c", "cd " + tree + " && cat $(find . -type f | sort) | sha256sum"),
                        run("sh", "-c", "cd " + mnt + " && cat $(find . -type f | sort) | sha256sum"));
                // statfs as df shows it: the archive's size used, the free space of the disk it is on
                String[] blocks = run("stat", "-f", "-c", "%b %f %a", mnt.toString()).trim().split(" ");
                long total = Long.parseLong(blocks[0]);
                assertTrue(total > 0 && Long.parseLong(blocks[1]) <= total && Long.parseLong(blocks[2]) <= total,
                        "blocks, free, available: " + String.join(" ", blocks));
                IOException e = assertThrows(IOException.class, () -> Files.writeString(mnt.resolve("new.txt"), "x"));
                assertTrue(String.valueOf(e.getMessage()).contains("Read-only file system"), e.toString());
                assertFalse(Files.exists(mnt.resolve("new.txt")));
            }
        }
    }

    /**
     * Entries zipfs hands back that no Linux directory can hold (a name over 255 bytes, in ASCII
     * or in two-byte letters, a name with a NUL, a directory's name over 255 bytes on the way to a
     * file) are left out of their directory's listing, each with one warning however often the
     * directory is listed; the other entries are listed and read as ever. Before, such a name failed
     * the whole listing with EIO.
     */
    @Test
    void entriesNoLinuxDirectoryCanHoldAreLeftOutWithOneWarningEach() throws Exception {
        String longAscii = "n".repeat(256);
        String longLetters = "é".repeat(128);
        String longDir = "m".repeat(300);
        Path archive = tmp.resolve("hostile.zip");
        try (ZipOutputStream zip = new ZipOutputStream(Files.newOutputStream(archive))) {
            for (String[] entry : List.of(new String[] {"good.txt", "ok\n"}, new String[] {longAscii, "long"},
                    new String[] {"nul\0name", "nul"}, new String[] {longLetters, "letters"}, new String[] {"sub/inner.txt", "inner\n"},
                    new String[] {"sub/" + longDir + "/f", "deep"}, new String[] {"z-last.txt", "last\n"})) {
                zip.putNextEntry(new ZipEntry(entry[0]));
                zip.write(entry[1].getBytes(StandardCharsets.UTF_8));
                zip.closeEntry();
            }
        }
        ListAppender<ILoggingEvent> log = new ListAppender<>();
        Logger logger = (Logger) LoggerFactory.getLogger(NioFileSystem.class);
        log.start();
        logger.addAppender(log);
        Path mnt = Files.createDirectory(tmp.resolve("mnt"));
        try (FileSystem zipfs = FileSystems.newFileSystem(archive, Map.of("accessMode", "readOnly"));
             InodeMount m = NioFileSystem.of(zipfs.getPath("/")).mount(mnt)) {
            for (int i = 0; i < 3; i++) {
                assertEquals(List.of("good.txt", "sub", "z-last.txt"), names(mnt));
                assertEquals(List.of("inner.txt"), names(mnt.resolve("sub")));
                assertEquals("good.txt\nsub\nz-last.txt\n", run("ls", mnt.toString()), "ls, as readdir(3) lists");
            }
            assertEquals("ok\n", Files.readString(mnt.resolve("good.txt")));
            assertEquals("inner\n", Files.readString(mnt.resolve("sub/inner.txt")));
            assertEquals("last\n", Files.readString(mnt.resolve("z-last.txt")));
        } finally {
            logger.detachAppender(log);
        }
        List<String> warnings = log.list.stream().filter(e -> e.getLevel() == Level.WARN).map(ILoggingEvent::getFormattedMessage).toList();
        assertEquals(4, warnings.size(), "one for each entry left out, however often listed: " + warnings);
        assertTrue(warnings.stream().anyMatch(w -> w.contains("256 bytes") && w.contains("nnnn")), warnings.toString());
        assertTrue(warnings.stream().anyMatch(w -> w.contains("NUL") && w.contains("nul\\0name")), warnings.toString());
        assertTrue(warnings.stream().anyMatch(w -> w.contains("300 bytes") && w.contains("/sub")), warnings.toString());
    }

    private static List<String> names(Path dir) throws IOException {
        try (var list = Files.list(dir)) {
            return list.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    private static void zip(Path tree, Path archive) throws IOException {
        try (OutputStream out = Files.newOutputStream(archive); ZipOutputStream zip = new ZipOutputStream(out);
             var walk = Files.walk(tree)) {
            for (Path p : walk.sorted().toList()) {
                if (p.equals(tree)) continue;
                String name = tree.relativize(p).toString() + (Files.isDirectory(p) ? "/" : "");
                zip.putNextEntry(new ZipEntry(name));
                if (Files.isRegularFile(p)) Files.copy(p, zip);
                zip.closeEntry();
            }
        }
    }

    private static String run(String... command) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        return out;
    }
}
