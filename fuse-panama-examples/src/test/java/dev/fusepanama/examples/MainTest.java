package dev.fusepanama.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MainTest {
    @Test
    @org.junit.jupiter.api.Timeout(value = 60, threadMode = org.junit.jupiter.api.Timeout.ThreadMode.SEPARATE_THREAD)
    void contradictoryMountOptionsAreAUsageErrorBeforeAnythingIsMounted(@TempDir Path tmp) {
        java.io.StringWriter err = new java.io.StringWriter();
        int code = new picocli.CommandLine(new Main()).setErr(new java.io.PrintWriter(err))
                .execute("hello", tmp.resolve("mnt").toString(), "-o", "umask=022,ro", "-o", "rw");
        assertEquals(2, code);
        assertTrue(err.toString().contains("-o ro and -o rw contradict each other"), err.toString());
        assertFalse(Files.exists(tmp.resolve("mnt")), "nothing created");
    }

    @Test
    void fusesOwnMountOptionsSetTheTypedSettings() {
        Main.Common c = new Main.Common();
        c.options = List.of("allow_other,fsname=demo", "max_read=65536", "umask=022");
        dev.fusepanama.MountOptions o = c.apply(dev.fusepanama.MountOptions.builder()).build();
        assertTrue(o.allowOther());
        assertEquals("demo", o.fsName());
        assertEquals(65536, o.maxRead());
        assertTrue(o.libfuseOptions().contains("umask=022"));
    }

    @Test
    void sizesParseLikeMountOptions() {
        assertEquals(512L << 20, Main.parseSize("512M"));
        assertEquals(2L << 30, Main.parseSize("2g"));
        assertEquals(4096, Main.parseSize("4096"));
        List.of("", "12X", "-1G", "M").forEach(bad -> {
            try {
                Main.parseSize(bad);
                throw new AssertionError("accepted " + bad);
            } catch (picocli.CommandLine.TypeConversionException expected) {
                // refused
            }
        });
    }

    @Test
    void aMountpointMadeByTheLauncherIsRemovedAndNothingElse(@TempDir Path tmp) throws IOException {
        Path existing = Files.createDirectory(tmp.resolve("existing"));
        Path mountpoint = existing.resolve("a/b/mnt");
        List<Path> created = Main.createMissing(mountpoint);
        assertEquals(List.of(existing.resolve("a"), existing.resolve("a/b"), mountpoint), created);
        assertTrue(Files.isDirectory(mountpoint));
        Main.removeCreated(created);
        assertFalse(Files.exists(existing.resolve("a")));
        assertTrue(Files.isDirectory(existing), "a directory that was there before is kept");

        assertEquals(List.of(), Main.createMissing(existing), "nothing is made for an existing directory");
        assertTrue(Files.isDirectory(existing));
    }

    @Test
    void aCreatedDirectorySomeoneFilledIsKept(@TempDir Path tmp) throws IOException {
        Path mountpoint = tmp.resolve("x/mnt");
        List<Path> created = Main.createMissing(mountpoint);
        Files.writeString(tmp.resolve("x/keep"), "data");
        Main.removeCreated(created);
        assertFalse(Files.exists(mountpoint), "the empty mountpoint itself goes");
        assertEquals("data", Files.readString(tmp.resolve("x/keep")), "a parent that got content stays, with it");
    }
}
