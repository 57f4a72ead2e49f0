package dev.fusepanama.cryptomator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fusepanama.MountException;
import dev.fusepanama.testkit.MountTest;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.cryptomator.integrations.mount.Mount;
import org.cryptomator.integrations.mount.MountCapability;
import org.cryptomator.integrations.mount.MountFailedException;
import org.cryptomator.integrations.mount.MountService;
import org.cryptomator.integrations.mount.UnmountFailedException;
import dev.fusepanama.libc.Libc;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The provider as Cryptomator finds and uses it: {@code MountService.get()} (ServiceLoader and the
 * API's annotations), a real cryptofs vault mounted at an existing directory, data written
 * through the mount read back through cryptofs's own NIO API and the reverse, and the lifecycle
 * the API promises (busy unmount refused with the reason, forced unmount, failed mount with its cause).
 */
@MountTest
@Timeout(value = 120, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class MountServiceTest {
    private Path tmp;
    private Path vault;
    private Path mountpoint;

    @BeforeEach
    void vault() throws IOException {
        tmp = Files.createTempDirectory("cryptomator-provider-");
        vault = Files.createDirectory(tmp.resolve("vault"));
        mountpoint = Files.createDirectory(tmp.resolve("mnt"));
        Vaults.create(vault, "correct horse");
    }

    @AfterEach
    void cleanUp() throws Exception {
        if (Files.readString(Path.of("/proc/self/mounts")).contains(" " + mountpoint + " ")) {
            new ProcessBuilder("umount", "-l", mountpoint.toString()).start().waitFor(10, TimeUnit.SECONDS);
        }
        try (var walk = Files.walk(tmp)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) Files.delete(p);
        }
    }

    private static MountService ours() {
        List<MountService> found = MountService.get().toList();
        return found.stream().filter(FusePanamaMountService.class::isInstance).findFirst()
                .orElseThrow(() -> new AssertionError("MountService.get() did not find fuse-panama's provider: " + found));
    }

    @Test
    void serviceLoaderFindsItSupportedWithMoreCapabilitiesThanCryptomatorsLinuxProvider() {
        MountService s = ours();
        assertTrue(s.isSupported());
        assertEquals("FUSE (fuse-panama)", s.displayName());
        for (MountCapability c : List.of(MountCapability.MOUNT_FLAGS, MountCapability.MOUNT_TO_EXISTING_DIR,
                MountCapability.READ_ONLY, MountCapability.UNMOUNT_FORCED, MountCapability.VOLUME_NAME,
                MountCapability.FILE_SYSTEM_NAME)) {
            assertTrue(s.hasCapability(c), c.toString());
        }
        assertEquals("-oauto_unmount -oattr_timeout=1 -oentry_timeout=1 -onegative_timeout=1", s.getDefaultMountFlags());
        assertThrows(IllegalArgumentException.class, () -> s.forFileSystem(Path.of("/")).setMountpoint(tmp.resolve("absent")));
    }

    /**
     * fuse-nio-adapter's defaults, which Cryptomator's users carry in their settings, mount: every
     * file is shown with the uid= and gid= given, and umask= shows every file's permission bits
     * as 0777 & ~umask, as libfuse's path API shows them.
     */
    @Test
    void theFlagsOfCryptomatorsOwnLinuxProviderMountWithTheirMeaning() throws Exception {
        try (FileSystem fs = Vaults.open(vault, "correct horse", false)) {
            Files.createDirectory(fs.getPath("/dir"));
            Files.writeString(fs.getPath("/dir/file"), "x");
            try (Mount m = ours().forFileSystem(fs.getPath("/")).setMountpoint(mountpoint)
                    .setMountFlags("-oauto_unmount -ouid=4321 -ogid=8765 -oattr_timeout=5").mount()) {
                for (Path p : List.of(mountpoint, mountpoint.resolve("dir"), mountpoint.resolve("dir/file"))) {
                    assertEquals(4321, Files.getAttribute(p, "unix:uid"), p.toString());
                    assertEquals(8765, Files.getAttribute(p, "unix:gid"), p.toString());
                }
                m.unmount();
            }
            try (Mount m = ours().forFileSystem(fs.getPath("/")).setMountpoint(mountpoint)
                    .setMountFlags("-o auto_unmount,umask=027,entry_timeout=0.5,negative_timeout=0 -oallow_other").mount()) {
                assertEquals(040750, Files.getAttribute(mountpoint.resolve("dir"), "unix:mode"));
                assertEquals(0100750, Files.getAttribute(mountpoint.resolve("dir/file"), "unix:mode"));
                assertTrue(Files.readString(Path.of("/proc/self/mounts")).lines()
                        .anyMatch(l -> l.contains(" " + mountpoint + " ") && l.contains("allow_other")), "allow_other reached the mount");
                m.unmount();
            }
        }
    }

    /** A flag the provider cannot honour fails the mount with the API's exception, naming it; nothing is mounted. */
    @Test
    void aFlagItCannotHonourFailsTheMountNamingIt() throws Exception {
        try (FileSystem fs = Vaults.open(vault, "correct horse", false)) {
            for (String[] bad : new String[][] {{"-okernel_cache", "kernel_cache"}, {"-o ro,rw", "contradict"},
                    {"-ofrobnicate", "frobnicate"}, {"-ouid=me", "uid=me"}, {"-oumask=999", "umask=999"},
                    {"-oattr_timeout=-1", "attr_timeout=-1"}, {"--debug", "--debug"}}) {
                MountFailedException e = assertThrows(MountFailedException.class, () -> ours().forFileSystem(fs.getPath("/"))
                        .setMountpoint(mountpoint).setMountFlags(bad[0]).mount(), bad[0]);
                assertTrue(e.getMessage().contains(bad[1]), e.getMessage());
                assertFalse(Files.readString(Path.of("/proc/self/mounts")).contains(" " + mountpoint + " "), "nothing mounted for " + bad[0]);
            }
        }
    }

    @Test
    void whatTheMountWritesCryptofsReadsAndTheReverse() throws Exception {
        try (FileSystem fs = Vaults.open(vault, "correct horse", false)) {
            Files.writeString(fs.getPath("/before.txt"), "written by cryptofs");
            try (Mount m = ours().forFileSystem(fs.getPath("/")).setMountpoint(mountpoint).setVolumeName("My Vault")
                    .setFileSystemName("cryptoFs").setMountFlags(ours().getDefaultMountFlags()).mount()) {
                assertEquals(mountpoint, Path.of(m.getMountpoint().uri()));
                String line = Files.readAllLines(Path.of("/proc/self/mounts")).stream()
                        .filter(l -> l.contains(" " + mountpoint + " ")).findFirst().orElseThrow();
                assertTrue(line.startsWith("My\\040Vault " + mountpoint + " fuse.cryptoFs "), line);
                assertEquals("written by cryptofs", Files.readString(mountpoint.resolve("before.txt")));
                Files.createDirectories(mountpoint.resolve("a/b"));
                Files.writeString(mountpoint.resolve("a/b/through the mount.txt"), "written through FUSE");
                assertTrue(sh("mv '" + mountpoint + "/before.txt' '" + mountpoint + "/a/renamed.txt'"));
                // cryptofs keeps no extended attributes: EOPNOTSUPP, twice (the kernel answers the second itself)
                var xattrs = Files.getFileAttributeView(mountpoint.resolve("a/renamed.txt"),
                        java.nio.file.attribute.UserDefinedFileAttributeView.class);
                for (int i = 0; i < 2; i++) {
                    IOException e = assertThrows(IOException.class,
                            () -> xattrs.write("k", java.nio.ByteBuffer.wrap(new byte[] {1})));
                    assertTrue(String.valueOf(e.getMessage()).contains("Operation not supported"), e.toString());
                }
            }
            assertEquals("written through FUSE", Files.readString(fs.getPath("/a/b/through the mount.txt")));
            assertEquals("written by cryptofs", Files.readString(fs.getPath("/a/renamed.txt")));
            assertFalse(Files.exists(fs.getPath("/before.txt")));
        }
        // The ciphertext holds no cleartext name or content.
        try (var walk = Files.walk(vault)) {
            for (Path p : walk.filter(Files::isRegularFile).toList()) {
                assertFalse(p.toString().contains("through the mount"), p.toString());
                assertFalse(new String(Files.readAllBytes(p), StandardCharsets.ISO_8859_1).contains("written"), p.toString());
            }
        }
    }

    @Test
    void aReadOnlyMountRefusesWritesWithErofs() throws Exception {
        try (FileSystem fs = Vaults.open(vault, "correct horse", false);
             Mount m = ours().forFileSystem(fs.getPath("/")).setMountpoint(mountpoint).setReadOnly(true).mount()) {
            assertTrue(Files.readString(Path.of("/proc/self/mounts")).lines()
                    .anyMatch(l -> l.contains(" " + mountpoint + " ") && l.contains(" ro,")));
            IOException e = assertThrows(IOException.class, () -> Files.writeString(mountpoint.resolve("x"), "x"));
            assertTrue(String.valueOf(e.getMessage()).contains("Read-only file system"), e.toString());
        }
    }

    /**
     * Locking a vault whose files are open, as Cryptomator does it: unmount() refuses at once with
     * the reason, unmountForced() ends the mount within a second, whether or not the machine has
     * the fuse control filesystem mounted (the connection is aborted through it either way).
     */
    @ParameterizedTest(name = "fusectl mounted: {0}")
    @ValueSource(booleans = {true, false})
    void aBusyMountIsNotUnmountedButSaysWhyAndAForcedUnmountEndsItWithinASecond(boolean fusectl) throws Exception {
        Assumptions.assumeTrue(Libc.geteuid() == 0, "aborting a FUSE connection takes root");
        boolean before = fusectlMounted();
        setFusectl(fusectl);
        try (FileSystem fs = Vaults.open(vault, "correct horse", false)) {
            Mount m = ours().forFileSystem(fs.getPath("/")).setMountpoint(mountpoint).mount();
            Path file = mountpoint.resolve("open.txt");
            FileChannel open = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            long start = System.nanoTime();
            UnmountFailedException busy = assertThrows(UnmountFailedException.class, m::unmount);
            assertTrue(System.nanoTime() - start < 1_000_000_000L, "refused at once");
            assertInstanceOf(MountException.class, busy.getCause());
            assertEquals(MountException.Reason.BUSY, ((MountException) busy.getCause()).reason());
            assertTrue(Files.exists(file), "still mounted after a refused unmount");
            start = System.nanoTime();
            m.unmountForced();
            long forced = System.nanoTime() - start;
            assertTrue(forced < 1_000_000_000L, "forced unmount took " + forced / 1_000_000 + " ms");
            assertFalse(Files.readString(Path.of("/proc/self/mounts")).contains(" " + mountpoint + " "));
            IOException ended = assertThrows(IOException.class, open::close, "the file's session has ended");
            assertTrue(String.valueOf(ended.getMessage()).contains("not connected"), ended.toString());
            m.close(); // ended already: nothing to do
            assertEquals(fusectl, fusectlMounted(), "the machine's fusectl mount is as it was");
        } finally {
            setFusectl(before);
        }
    }

    private static final String FUSECTL = "/sys/fs/fuse/connections";

    private static boolean fusectlMounted() throws IOException {
        return Files.readString(Path.of("/proc/self/mounts")).lines().anyMatch(l -> l.split(" ")[1].equals(FUSECTL));
    }

    private static void setFusectl(boolean mounted) throws Exception {
        if (fusectlMounted() == mounted) return;
        List<String> command = mounted ? List.of("mount", "-t", "fusectl", "fusectl", FUSECTL) : List.of("umount", FUSECTL);
        assertEquals(0, new ProcessBuilder(command).inheritIO().start().waitFor(), String.join(" ", command));
    }

    @Test
    void aFailedMountThrowsWithItsCause() throws Exception {
        try (FileSystem fs = Vaults.open(vault, "correct horse", false)) {
            var builder = ours().forFileSystem(fs.getPath("/")).setMountpoint(mountpoint);
            Files.delete(mountpoint); // gone between the check and the mount
            MountFailedException e = assertThrows(MountFailedException.class, builder::mount);
            assertInstanceOf(MountException.class, e.getCause());
            assertEquals(MountException.Reason.MOUNTPOINT_MISSING, ((MountException) e.getCause()).reason());
            Files.createDirectory(mountpoint);
            assertThrows(MountFailedException.class, () -> ours().forFileSystem(fs.getPath("/")).mount(), "no mountpoint set");
        }
    }

    private static boolean sh(String command) throws Exception {
        return new ProcessBuilder("sh", "-c", command).inheritIO().start().waitFor() == 0;
    }
}
