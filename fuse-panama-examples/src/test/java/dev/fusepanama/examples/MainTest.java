package dev.fusepanama.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fusepanama.MountOptions;
import dev.fusepanama.testkit.ChildJvm;
import dev.fusepanama.testkit.MountTest;
import dev.fusepanama.testkit.TestMount;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
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
    void fusesCommonOptionsMapOntoTheTypedSettingsOrPassOn() {
        Main.Common c = new Main.Common();
        c.options = List.of("allow_other,allow_root,ro,default_permissions", "fsname=demo,subtype=kind,max_read=65536",
                "auto_unmount,nosuid,nodev,noexec,noatime,uid=1000,gid=100,umask=022,attr_timeout=2");
        MountOptions o = c.apply(MountOptions.builder()).build();
        assertTrue(o.allowOther());
        assertTrue(o.readOnly());
        assertTrue(o.defaultPermissions());
        assertEquals("demo", o.fsName());
        assertEquals("kind", o.subtype());
        assertEquals(65536, o.maxRead());
        assertEquals(List.of("allow_root", "auto_unmount", "nosuid", "nodev", "noexec", "noatime", "uid=1000", "gid=100", "umask=022"),
                o.rawOptions(), "passed on to libfuse as they are");
        assertEquals(2.0, c.path.build().attrTimeout().orElseThrow());
        assertEquals(List.of("-o uid=1000", "-o gid=100", "-o umask=022", "-o attr_timeout=2"), c.pathSettings,
                "what a filesystem on the inode API cannot take");

        Main.Common rw = new Main.Common();
        rw.options = List.of("rw");
        assertFalse(rw.apply(MountOptions.builder().readOnly(true)).build().readOnly(), "-o rw undoes a filesystem's ro default");
    }

    /** The launcher's message for {@code args}, which it must refuse before mounting (exit status 2). */
    private static String refusal(Path tmp, String... args) {
        StringWriter err = new StringWriter();
        int code = new picocli.CommandLine(new Main()).setErr(new PrintWriter(err)).execute(args);
        String message = err.toString().lines().findFirst().orElse("");
        assertEquals(2, code, err.toString());
        assertFalse(Files.exists(tmp.resolve("mnt")), "nothing created or mounted");
        assertFalse(message.contains("Builder") || message.contains("PathOptions") || message.contains("MountOptions"),
                "in a shell user's words, without Java names: " + message);
        return message;
    }

    @Test
    void unknownAndContradictoryOptionsAreRefusedInAShellUsersWords(@TempDir Path tmp) throws IOException {
        String mnt = tmp.resolve("mnt").toString();
        Path source = Files.createDirectory(tmp.resolve("source"));
        assertEquals("-o bogus: no FUSE option named bogus is taken here; the options are allow_other, allow_root, ro, rw, "
                + "default_permissions, fsname=NAME, subtype=NAME, max_read=BYTES, auto_unmount, nosuid, nodev, noexec, noatime, "
                + "attr_timeout=SECONDS, ... (the launcher's own options: --help)", refusal(tmp, "memfs", mnt, "-o", "allow_other,bogus"));
        assertEquals("-o ro and -o rw contradict each other (the launcher's own options: --help)",
                refusal(tmp, "memfs", mnt, "-o", "ro,rw"));
        assertEquals("--read-only and -o rw contradict each other (the launcher's own options: --help)",
                refusal(tmp, "memfs", mnt, "--read-only", "-o", "rw"));
        assertEquals("--attr-timeout 2.0 and -o attr_timeout=3 contradict each other (the launcher's own options: --help)",
                refusal(tmp, "hello", mnt, "--attr-timeout", "2", "-o", "attr_timeout=3"));
        assertTrue(refusal(tmp, "hello", mnt, "-o", "max_read=lots").startsWith("-o max_read=lots: lots is not a whole number"));
        assertTrue(refusal(tmp, "hello", mnt, "-o", "fsname").startsWith("-o fsname needs a value: fsname=VALUE"));
        assertTrue(refusal(tmp, "hello", mnt, "-o", "ro=1").startsWith("-o ro takes no value: ro=1"));
        for (String[] inode : List.of(new String[] {"memfs", mnt}, new String[] {"mirror", source.toString(), mnt})) {
            List<String> args = new ArrayList<>(List.of(inode));
            args.addAll(List.of("-o", "uid=1000,umask=022"));
            String message = refusal(tmp, args.toArray(String[]::new));
            assertTrue(message.startsWith("-o uid=1000, -o umask=022: " + inode[0] + " reports each file's own owner and mode"), message);
            assertTrue(message.contains("path API (hello)"), message);
        }
    }

    /**
     * Whether auto_unmount can work with this libfuse and the system's fusermount3: libfuse 3.17+
     * hands it over as {@code --auto-unmount}, which an older fusermount3 refuses (libfuse then
     * mounts without it). A distribution ships the two together; the version matrix runs newer
     * libfuse releases with the system's fusermount3 (3.14 on Debian 12).
     */
    private static boolean fusermountTakesAutoUnmount() throws Exception {
        if (!TestMount.libfuseAtLeast(3, 17)) {
            return true;
        }
        Process v = new ProcessBuilder("fusermount3", "--auto-unmount", "-V").redirectErrorStream(true).start();
        v.getInputStream().readAllBytes();
        return v.waitFor() == 0;
    }

    /**
     * FUSE's options through the command as a user runs it (another JVM, as ./fuse-panama starts
     * it): the kernel's view of the mount in /proc/mounts, the owners and modes libfuse's path API
     * sets, and auto_unmount, which leaves nothing mounted when the process is killed.
     */
    @Test
    @MountTest
    @Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void fusesOptionsReachTheMount(@TempDir Path tmp) throws Exception {
        Path memfs = tmp.resolve("memfs");
        Process p = launch(tmp, "memfs", memfs.toString(), "--max-size", "16M",
                "-o", "ro,allow_root,fsname=demo,subtype=kind,max_read=65536", "-o", "nosuid,noexec,auto_unmount");
        try {
            String line = awaitMount(p, memfs, tmp);
            String[] fields = line.split(" ");
            assertEquals("demo", fields[0], line);
            assertEquals("fuse.kind", fields[2], line);
            List<String> options = List.of(fields[3].split(","));
            // allow_root is allow_other to the kernel; libfuse itself turns away other users but root
            for (String o : List.of("ro", "nosuid", "noexec", "max_read=65536", "allow_other", "default_permissions")) {
                assertTrue(options.contains(o), o + " in " + line);
            }
            assertThrows(java.nio.file.FileSystemException.class, () -> Files.writeString(memfs.resolve("f"), "x"), "read-only");
            p.destroyForcibly(); // SIGKILL: no clean unmount; auto_unmount's fusermount3 unmounts
            assertTrue(p.waitFor(30, TimeUnit.SECONDS));
            if (fusermountTakesAutoUnmount()) {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                while (mountLine(memfs) != null && System.nanoTime() < deadline) Thread.sleep(50);
                assertEquals(null, mountLine(memfs), "auto_unmount unmounted after the process was killed");
            }
        } finally {
            stop(p, memfs);
        }

        Path hello = tmp.resolve("hello");
        p = launch(tmp, "hello", hello.toString(), "-o", "uid=4242,gid=4243,umask=027");
        try {
            awaitMount(p, hello, tmp);
            assertEquals(4242, Files.getAttribute(hello.resolve("hello"), "unix:uid"));
            assertEquals(4243, Files.getAttribute(hello.resolve("hello"), "unix:gid"));
            assertEquals(0750, (int) Files.getAttribute(hello.resolve("hello"), "unix:mode") & 07777,
                    "libfuse sets the mode to 0777 less the umask, whatever the filesystem said");
            p.destroy(); // SIGTERM: a clean unmount
            assertTrue(p.waitFor(30, TimeUnit.SECONDS));
            assertEquals(0, p.exitValue());
            assertEquals(null, mountLine(hello));
        } finally {
            stop(p, hello);
        }
    }

    private static Process launch(Path tmp, String... args) throws IOException {
        return new ProcessBuilder(ChildJvm.command(Main.class, args)).redirectErrorStream(true)
                .redirectOutput(tmp.resolve(args[0] + ".log").toFile()).start();
    }

    /**
     * Waits for the command's start-up line, which it writes once mount has returned and it
     * serves (and handles SIGTERM): the kernel lists the mount a little earlier, while the mount
     * still waits for libfuse's INIT reply. Returns the /proc/mounts line.
     */
    private static String awaitMount(Process p, Path at, Path tmp) throws Exception {
        Path log = tmp.resolve(at.getFileName() + ".log");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!(mountLine(at) != null && Files.readString(log, StandardCharsets.UTF_8).contains(" mounted at " + at))
                && p.isAlive() && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        String line = mountLine(at);
        assertTrue(line != null && Files.readString(log, StandardCharsets.UTF_8).contains(" mounted at " + at),
                "mounted: " + Files.readString(log, StandardCharsets.UTF_8));
        return line;
    }

    /** The /proc/mounts line of the mount at {@code at}, or null. */
    private static String mountLine(Path at) throws IOException {
        return Files.readAllLines(Path.of("/proc/self/mounts")).stream().filter(l -> l.split(" ")[1].equals(at.toString()))
                .findFirst().orElse(null);
    }

    /** Leaves nothing behind, whatever failed. */
    private static void stop(Process p, Path at) throws Exception {
        p.destroyForcibly();
        p.waitFor(30, TimeUnit.SECONDS);
        if (mountLine(at) != null) {
            new ProcessBuilder("fusermount3", "-u", "-z", at.toString()).inheritIO().start().waitFor(30, TimeUnit.SECONDS);
        }
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
