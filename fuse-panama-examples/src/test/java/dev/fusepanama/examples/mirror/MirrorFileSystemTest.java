package dev.fusepanama.examples.mirror;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fusepanama.Errno;
import dev.fusepanama.Posix;
import dev.fusepanama.libc.Libc;
import dev.fusepanama.testkit.ChildJvm;
import dev.fusepanama.testkit.DeepTree;
import dev.fusepanama.testkit.Emulation;
import dev.fusepanama.testkit.Os;
import dev.fusepanama.testkit.TestMount;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What the POSIX suite cannot show by comparison: that the mirror stays inside its source when
 * the source is changed under it, that names and data arrive in the source byte for byte, and
 * who owns what a caller creates.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class MirrorFileSystemTest {
    @TempDir
    Path tmp;

    private Path source;
    private Path outside;

    private TestMount mount(MirrorFileSystem fs) throws IOException {
        return TestMount.mount(fs, fs.mountOptions().allowOther(true).build());
    }

    private void sourceAndOutside() throws IOException {
        source = Files.createDirectory(tmp.resolve("source"));
        outside = Files.createDirectory(tmp.resolve("outside"));
        Files.writeString(outside.resolve("secret"), "outside the source");
        Files.writeString(outside.resolve("victim"), "must survive");
        Files.setPosixFilePermissions(outside.resolve("victim"), PosixFilePermissions.fromString("rw-r--r--"));
    }

    private static int errnoOf(Runnable call) {
        try {
            call.run();
            return 0;
        } catch (Os.OsException e) {
            return e.errno;
        }
    }

    /**
     * The race a hostile source can win against any pass-through: the kernel has resolved
     * {@code dir} (here: a descriptor of it is held), then {@code dir} in the source becomes a
     * link to a directory outside. Every operation through the old {@code dir} must reach the
     * mirror and be refused by it ({@code ELOOP}, or {@code ENOTDIR} from the per-component
     * walk), not reach outside. The mount caches attributes and names, so that the kernel trusts
     * what it resolved before the swap (with timeouts 0 it would notice that {@code dir} became a
     * link, mark the inode bad and answer {@code EIO} itself, and the mirror would never be
     * asked); {@code victim} is looked up before the swap, so the operations on it reach the
     * mirror as themselves, not as a lookup. Run with each containment: the private mount that
     * follows no link, openat2, and the per-component walk of kernels before 5.6.
     */
    @ParameterizedTest
    @EnumSource(Containment.class)
    void aDirectorySwappedForALinkOutsideLeadsNowhere(Containment containment) throws Exception {
        sourceAndOutside();
        Files.createDirectories(source.resolve("dir"));
        Files.writeString(source.resolve("dir/inside"), "in");
        Files.writeString(source.resolve("dir/victim"), "inside");
        MirrorFileSystem fs = MirrorFileSystem.zeroCopy(source, containment);
        assertEquals(containment, fs.containment());
        int refused = containment == Containment.PER_COMPONENT ? Errno.ENOTDIR : Errno.ELOOP;
        try (TestMount m = TestMount.mount(fs, fs.mountOptions().allowOther(true)
                .attrTimeout(3600).entryTimeout(3600).build())) {
            int dirFd = Os.open(Os.bytes(m.path("dir")), Posix.O_PATH | Posix.O_DIRECTORY, 0);
            assertTrue(dirFd >= 0, "open dir: " + dirFd);
            try {
                Path viaFd = Path.of("/proc/self/fd/" + dirFd);
                byte[] secret = Os.bytes(viaFd.resolve("secret"));
                byte[] victim = Os.bytes(viaFd.resolve("victim"));
                assertEquals(2, Os.lstat(Os.bytes(viaFd.resolve("inside"))).size(), "reachable before the swap");
                assertEquals(6, Os.lstat(victim).size(), "victim looked up before the swap");

                Files.move(source.resolve("dir"), source.resolve("dir.moved"));
                Files.createSymbolicLink(source.resolve("dir"), outside);

                // New names: the kernel asks the mirror to look them up.
                assertEquals(refused, errnoOf(() -> Os.lstat(secret)), "stat outside");
                assertEquals(-refused, Os.open(Os.bytes(viaFd.resolve("planted")), Posix.O_CREAT | Posix.O_WRONLY, 0644), "create outside");
                assertEquals(-refused, Os.mkdir(Os.bytes(viaFd.resolve("newdir")), 0755), "mkdir outside");
                assertEquals(-refused, Os.symlink("x".getBytes(), Os.bytes(viaFd.resolve("planted-link"))), "symlink outside");
                assertEquals(-refused, Os.link(Os.bytes(m.path("dir.moved/inside")), Os.bytes(viaFd.resolve("planted-hard"))), "link outside");
                // A name the kernel has cached: each operation reaches the mirror as itself.
                assertEquals(-refused, Os.open(victim, Posix.O_RDONLY, 0), "open outside");
                assertEquals(-refused, Os.chmod(victim, 0777), "chmod outside");
                assertEquals(-refused, Os.truncate(victim, 0), "truncate outside");
                assertEquals(-refused, Os.setxattr(victim, "user.x", "v".getBytes(), 0), "setxattr outside");
                assertEquals(-refused, Os.renameat2(victim, Os.bytes(m.path("stolen")), 0), "rename out of outside");
                assertEquals(-refused, Os.unlink(victim), "unlink outside");

                try (var listing = Files.list(outside)) {
                    assertEquals(List.of("secret", "victim"), listing.map(p -> p.getFileName().toString()).sorted().toList());
                }
                assertEquals("must survive", Files.readString(outside.resolve("victim")));
                assertEquals("rw-r--r--", PosixFilePermissions.toString(Files.getPosixFilePermissions(outside.resolve("victim"))));
                assertFalse(Files.exists(source.resolve("stolen")));
            } finally {
                Os.close(dirFd);
            }
        }
    }

    @Test
    void linksInTheSourceAreShownAsLinksWithTheirTargetBytes() throws Exception {
        sourceAndOutside();
        Files.createSymbolicLink(source.resolve("abs"), outside.resolve("secret"));
        Files.createSymbolicLink(source.resolve("up"), Path.of("../../../.."));
        byte[] odd = {'t', (byte) 0xff, '/', (byte) 0xc3};
        assertEquals(0, Os.symlink(odd, Os.bytes(source.resolve("odd"))));
        try (TestMount m = mount(MirrorFileSystem.zeroCopy(source))) {
            assertEquals(Posix.S_IFLNK, Os.lstat(Os.bytes(m.path("abs"))).mode() & Posix.S_IFMT);
            assertArrayEquals(Os.bytes(outside.resolve("secret")), Os.readlink(Os.bytes(m.path("abs"))));
            assertArrayEquals("../../../..".getBytes(), Os.readlink(Os.bytes(m.path("up"))));
            assertArrayEquals(odd, Os.readlink(Os.bytes(m.path("odd"))));
            assertEquals(odd.length, Os.lstat(Os.bytes(m.path("odd"))).size());
        }
    }

    @Test
    void aNameThatIsNotUtf8KeepsItsBytesInTheSource() throws Exception {
        sourceAndOutside();
        byte[] name = {'a', (byte) 0xff, (byte) 0xfe, 'b', (byte) 0x80};
        byte[] renamed = {(byte) 0xc3, '(', 'z'};
        int fd = Os.open(Os.child(source, name), Posix.O_CREAT | Posix.O_WRONLY, 0644);
        Os.pwrite(fd, "payload".getBytes(), 0);
        Os.close(fd);
        try (TestMount m = mount(MirrorFileSystem.zeroCopy(source))) {
            assertTrue(Os.listBytes(m.root()).stream().anyMatch(n -> Arrays.equals(n, name)), "listed with its bytes");
            int rfd = Os.open(Os.child(m.root(), name), Posix.O_RDONLY, 0);
            assertTrue(rfd >= 0, "open: " + rfd);
            assertArrayEquals("payload".getBytes(), Os.pread(rfd, 100, 0));
            Os.close(rfd);
            assertEquals(0, Os.renameat2(Os.child(m.root(), name), Os.child(m.root(), renamed), 0));
            List<byte[]> inSource = Os.listBytes(source);
            assertTrue(inSource.stream().anyMatch(n -> Arrays.equals(n, renamed)), "renamed in the source with identical bytes");
            assertFalse(inSource.stream().anyMatch(n -> Arrays.equals(n, name)));
            assertEquals(0, Os.unlink(Os.child(m.root(), renamed)));
            assertFalse(Os.listBytes(source).stream().anyMatch(n -> Arrays.equals(n, renamed)), "deleted from the source");
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"passthrough", "splice", "memory"})
    void dataArrivesInTheSourceByteForByte(String how) throws Exception {
        sourceAndOutside();
        byte[] data = new byte[(8 << 20) + 12345];
        new Random(42).nextBytes(data);
        Files.write(source.resolve("in"), data);
        MirrorFileSystem fs = mirror(how);
        try (TestMount m = mount(fs)) {
            String described = m.handle().describe();
            assertEquals(how.equals("passthrough") && TestMount.passthroughExpected(), described.contains("kernel passthrough"), described);
            assertArrayEquals(data, Files.readAllBytes(m.path("in")), "read through the mount");

            Files.write(m.path("out"), data);
            assertArrayEquals(data, Files.readAllBytes(source.resolve("out")), "written through the mount");
            int wfd = Os.open(Os.bytes(m.path("out")), Posix.O_WRONLY, 0);
            assertEquals(3, Os.pwrite(wfd, "XYZ".getBytes(), 5_000_000));
            Os.close(wfd);
            byte[] patched = data.clone();
            System.arraycopy("XYZ".getBytes(), 0, patched, 5_000_000, 3);
            assertArrayEquals(patched, Files.readAllBytes(source.resolve("out")), "a write in the middle");
        }
    }

    /** The mirror of the source with data passed through to the kernel, spliced, or copied through memory. */
    private MirrorFileSystem mirror(String how) throws IOException {
        return switch (how) {
            case "passthrough" -> MirrorFileSystem.zeroCopy(source);
            case "splice" -> MirrorFileSystem.zeroCopy(source, null, false);
            default -> MirrorFileSystem.of(source);
        };
    }

    /**
     * A client's O_DIRECT read is served, the mirror leaving the flag out of its own open. Not
     * under emulation: the x86-64 kernel's O_DIRECT bit is arm64's O_DIRECTORY ({@link Emulation}).
     */
    @ParameterizedTest
    @ValueSource(strings = {"passthrough", "splice", "memory"})
    void anODirectReadIsServed(String how) throws Exception {
        Assumptions.assumeFalse(Emulation.active(), "the kernel's open flags are numbered for another architecture than this JVM's");
        sourceAndOutside();
        byte[] data = new byte[(2 << 20) + 12345];
        new Random(43).nextBytes(data);
        Files.write(source.resolve("in"), data);
        MirrorFileSystem fs = mirror(how);
        try (TestMount m = mount(fs)) {
            int fd = Os.open(Os.bytes(m.path("in")), Posix.O_RDONLY | Posix.O_DIRECT, 0);
            assertTrue(fd >= 0, "open with O_DIRECT: " + fd);
            assertArrayEquals(Arrays.copyOfRange(data, 1 << 20, 2 << 20), Os.pread(fd, 1 << 20, 1 << 20), "O_DIRECT read");
            Os.close(fd);
        }
    }

    /** Run as root for other users, the mirror gives what they create to them, and set-group-ID directories still pass their group on. */
    @Test
    void whatAnotherUserCreatesBelongsToThem() throws Exception {
        sourceAndOutside();
        Files.setPosixFilePermissions(source, PosixFilePermissions.fromString("rwxrwxrwx"));
        Path shared = Files.createDirectory(source.resolve("shared"));
        assertEquals(0, Os.chown(Os.bytes(shared), 0, 4321));
        assertEquals(0, Os.chmod(Os.bytes(shared), 02777));
        List<String> nobody = List.of("setpriv", "--reuid=65534", "--regid=65533", "--clear-groups", "--");
        try (TestMount m = mount(MirrorFileSystem.zeroCopy(source))) {
            Path root = m.root();
            run(nobody, "sh", "-c", "umask 022; exec touch " + root.resolve("file"));
            run(nobody, "mkdir", root.resolve("dir").toString());
            run(nobody, "ln", "-s", "file", root.resolve("link").toString());
            run(nobody, "mkfifo", root.resolve("fifo").toString());
            run(nobody, "touch", root.resolve("shared/file").toString());
            run(nobody, "sh", "-c", "umask 022; exec /usr/bin/perl -MFcntl -e 'sysopen(my $f, $ARGV[0], O_CREAT | O_WRONLY, 02755) or die $!' "
                    + root.resolve("setgid"));
            for (String n : List.of("file", "dir", "link", "fifo")) {
                Os.StatResult st = Os.lstat(Os.bytes(source.resolve(n)));
                assertEquals(65534, st.uid(), n + " owner");
                assertEquals(65533, st.gid(), n + " group");
            }
            Os.StatResult inShared = Os.lstat(Os.bytes(source.resolve("shared/file")));
            assertEquals(65534, inShared.uid());
            assertEquals(4321, inShared.gid(), "the set-group-ID directory's group");
            assertEquals(0644, Os.lstat(Os.bytes(source.resolve("file"))).mode() & 07777, "the caller's umask, once");
            assertEquals(02755, Os.lstat(Os.bytes(source.resolve("setgid"))).mode() & 07777, "set-ID bits survive the chown");
        }
    }

    /**
     * A write by another user clears the set-user-ID and set-group-ID bits, as on a local
     * filesystem, whichever way the data travels (passed through, the kernel writes the source as
     * the mirror's root; the kernel's check before each write is what clears them).
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"passthrough", "splice"})
    void aWriteByAnotherUserClearsTheSetIdBits(String how) throws Exception {
        sourceAndOutside();
        try (TestMount m = mount(MirrorFileSystem.zeroCopy(source, null, how.equals("passthrough")))) {
            Path f = m.path("setid");
            Files.writeString(f, "x");
            assertEquals(0, Os.chmod(Os.bytes(f), 06777));
            run(List.of("setpriv", "--reuid=65534", "--regid=65533", "--clear-groups", "--"),
                    "sh", "-c", "echo more >> " + f);
            assertEquals(0777, Os.lstat(Os.bytes(source.resolve("setid"))).mode() & 07777, "set-ID bits cleared in the source");
            assertEquals("x" + "more\n", Files.readString(f));
        }
    }

    private static void run(List<String> prefix, String... command) throws Exception {
        List<String> all = new java.util.ArrayList<>(prefix);
        all.addAll(List.of(command));
        Process p = new ProcessBuilder(all).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS), "timed out: " + all);
        assertEquals(0, p.exitValue(), all + ": " + out);
    }

    @Test
    void statfsIsTheSources() throws Exception {
        sourceAndOutside();
        try (TestMount m = mount(MirrorFileSystem.zeroCopy(source))) {
            Os.StatVfsResult mirrored = Os.statvfs(m.root());
            Os.StatVfsResult real = Os.statvfs(source);
            assertEquals(real.bsize(), mirrored.bsize());
            assertEquals(real.blocks(), mirrored.blocks());
            assertEquals(real.files(), mirrored.files());
            assertEquals(real.namemax(), mirrored.namemax());
        }
    }

    @Test
    void aSourceThatIsNotADirectoryIsRefusedClearly() throws Exception {
        sourceAndOutside();
        IOException missing = assertThrows(IOException.class, () -> MirrorFileSystem.of(tmp.resolve("absent")));
        assertTrue(missing.getMessage().contains("ENOENT") && missing.getMessage().contains("absent"), missing.getMessage());
        IOException file = assertThrows(IOException.class, () -> MirrorFileSystem.of(outside.resolve("secret")));
        assertTrue(file.getMessage().contains("ENOTDIR"), file.getMessage());
    }

    /**
     * As root the mirror follows no link in a copy of the source's mount that no namespace
     * shows; without CAP_SYS_ADMIN (a child JVM whose bounding set lacks it) it falls back to
     * openat2, and asking for the private mount there fails with a reason.
     */
    @Test
    void thePrivateMountIsUsedWhereAllowedAndRefusedClearlyWhereNot() throws Exception {
        sourceAndOutside();
        String mountsBefore = Files.readString(Path.of("/proc/self/mountinfo"));
        try (MirrorFileSystem fs = MirrorFileSystem.zeroCopy(source)) {
            assertEquals(Containment.PRIVATE_MOUNT, fs.containment(), "root's default");
            assertEquals(mountsBefore, Files.readString(Path.of("/proc/self/mountinfo")), "the copy is attached nowhere");
        }
        List<String> command = new ArrayList<>(List.of("setpriv", "--bounding-set=-sys_admin", "--inh-caps=-sys_admin", "--"));
        command.addAll(ChildJvm.command(ContainmentProbe.class, source.toString()));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the probe timed out");
        assertEquals(0, p.exitValue(), out);
        assertTrue(out.contains("default: OPENAT2"), out);
        assertTrue(out.contains("private mount refused: cannot make a private mount of the source " + source
                + " (EPERM, it needs CAP_SYS_ADMIN)"), out);
    }

    /**
     * The mirror is made on the application's thread; the umask of 0 its libfuse workers set for
     * themselves (each in its own fs_struct) must not reach that thread, nor the one that closes it.
     */
    @Test
    void makingAndClosingAMirrorLeavesTheCallersUmaskAlone() throws Exception {
        sourceAndOutside();
        int previous = Libc.umask(022);
        try {
            MirrorFileSystem.zeroCopy(source).close();
            MirrorFileSystem.of(source, Containment.OPENAT2).close();
            Path created = Files.createFile(tmp.resolve("created-after"));
            assertEquals("rw-r--r--", PosixFilePermissions.toString(Files.getPosixFilePermissions(created)));
            assertEquals(022, Libc.umask(022), "this thread's umask");
        } finally {
            Libc.umask(previous);
        }
    }

    /** getxattrat and its siblings (Linux 6.13) are found where the kernel has them, and used. */
    @Test
    void getxattratIsUsedWhereTheKernelHasIt() throws Exception {
        sourceAndOutside();
        String[] release = System.getProperty("os.version").split("[.-]");
        int major = Integer.parseInt(release[0]);
        int minor = Integer.parseInt(release[1]);
        // Under qemu-user the emulator answers instead of the kernel, and qemu 10 and 11 have no getxattrat.
        boolean kernelHasIt = (major > 6 || (major == 6 && minor >= 13)) && !Emulation.active();
        for (Containment c : List.of(Containment.PRIVATE_MOUNT, Containment.OPENAT2)) {
            try (MirrorFileSystem fs = MirrorFileSystem.of(source, c)) {
                assertEquals(kernelHasIt, fs.source().xattrAt(), c + " on Linux " + System.getProperty("os.version"));
            }
        }
    }

    /**
     * Without getxattrat (before Linux 6.13, or behind a seccomp filter that refuses it) the file
     * is named /proc/self/fd/DIRFD/NAME: the same answers, but a path that fits PATH_MAX only
     * without that prefix gets ENAMETOOLONG with the private mount, whose NAME is the whole path
     * (with openat2 it is the last component).
     */
    @ParameterizedTest
    @EnumSource(value = Containment.class, names = {"PRIVATE_MOUNT", "OPENAT2"})
    void extendedAttributesThroughProcWithoutGetxattrat(Containment containment) throws Exception {
        sourceAndOutside();
        Files.createDirectories(source.resolve("d/e"));
        Files.writeString(source.resolve("d/e/f"), "x");
        MirrorFileSystem fs = MirrorFileSystem.zeroCopyWithProcXattrPaths(source, containment);
        assertFalse(fs.source().xattrAt());
        try (TestMount m = mount(fs)) {
            byte[] f = Os.bytes(m.path("d/e/f"));
            assertEquals(0, Os.setxattr(f, "user.a", "v1".getBytes(), 0));
            assertArrayEquals("v1".getBytes(), Os.getxattr(source.resolve("d/e/f").toString().getBytes(), "user.a", 10).data(),
                    "set in the source");
            assertArrayEquals("v1".getBytes(), Os.getxattr(f, "user.a", 10).data());
            assertEquals(List.of("user.a"), Os.listxattr(f, 100).names());
            assertEquals(0, Os.removexattr(f, "user.a"));
            assertEquals(-Errno.ENODATA, Os.getxattr(f, "user.a", 10).rc());
            assertEquals(0, Os.setxattr(Os.bytes(m.root()), "user.top", "t".getBytes(), 0), "the top directory");
            assertArrayEquals("t".getBytes(), Os.getxattr(source.toString().getBytes(), "user.top", 10).data());

            // 20 directories of 200 bytes and a name of 69: 4,089 bytes from the top.
            DeepTree tree = new DeepTree(m.root(), 20, "d".repeat(200));
            byte[] deep = tree.inDeepest("f".repeat(69));
            Os.close(Os.open(deep, Posix.O_CREAT | Posix.O_WRONLY, 0644));
            assertEquals(containment == Containment.PRIVATE_MOUNT ? -Errno.ENAMETOOLONG : 0,
                    Os.setxattr(deep, "user.deep", "v".getBytes(), 0));
            assertEquals(0, Os.unlink(deep));
            assertTrue(tree.remove(), "rmdir of every level");
        }
    }

    @Test
    void anUnmountClosesTheSourceDescriptor() throws Exception {
        sourceAndOutside();
        MirrorFileSystem fs = MirrorFileSystem.zeroCopy(source);
        assertTrue(descriptorsOf(source) > 0, "the source is held open");
        try (TestMount m = mount(fs)) {
            Files.writeString(m.path("f"), "x");
            try (var dir = Files.list(m.root())) {
                assertEquals(1, dir.count());
            }
        }
        assertEquals(0, descriptorsOf(source), "no descriptor of the source left after the mount ended");
    }

    /**
     * The kernel may never deliver the release of a handle closed just before an unmount (it
     * aborts what is still queued after DESTROY), nor of one open when the connection is aborted:
     * the mirror closes what it still holds when the mount ends. Made deterministic here by
     * aborting the connection while a file and a directory are open through the mount.
     */
    @Test
    void descriptorsWhoseReleaseNeverCameAreClosedWhenTheMountEnds() throws Exception {
        sourceAndOutside();
        Files.writeString(source.resolve("f"), "x");
        TestMount.ensureFusectl();
        MirrorFileSystem fs = MirrorFileSystem.zeroCopy(source);
        try (TestMount m = mount(fs)) {
            long connection = (long) Files.getAttribute(m.root(), "unix:dev");
            int file = Os.open(m.path("f"), Posix.O_RDONLY);
            int dir = Os.open(Os.bytes(m.root()), Posix.O_RDONLY | Posix.O_DIRECTORY, 0);
            assertTrue(file >= 0 && dir >= 0, "open through the mount: " + file + ", " + dir);
            assertEquals(3, descriptorsOf(source), "the source, the file and the directory are held open");
            Files.writeString(Path.of("/sys/fs/fuse/connections", Long.toString(connection), "abort"), "1");
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (descriptorsOf(source) > 0 && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            Os.close(file);
            Os.close(dir);
        }
        assertEquals(0, descriptorsOf(source), "no descriptor into the source left after the connection ended");
    }

    /**
     * This process's descriptors into {@code dir}: those whose path lies in it, and those on
     * {@code dir}'s filesystem through a mount no namespace shows (a private mount's copy, whose
     * paths start at its own root; only the mirror makes them here).
     */
    static long descriptorsOf(Path dir) throws IOException {
        java.util.Set<String> attached = new java.util.HashSet<>();
        for (String line : Files.readAllLines(Path.of("/proc/self/mountinfo"))) {
            attached.add(line.substring(0, line.indexOf(' ')));
        }
        try (var fds = Files.list(Path.of("/proc/self/fd"))) {
            return fds.filter(fd -> {
                try {
                    if (Files.readSymbolicLink(fd).startsWith(dir)) {
                        return true;
                    }
                    String mount = Files.readAllLines(Path.of("/proc/self/fdinfo").resolve(fd.getFileName())).stream()
                            .filter(l -> l.startsWith("mnt_id:")).map(l -> l.substring(7).trim()).findFirst().orElse(null);
                    return mount != null && !attached.contains(mount)
                            && Files.getAttribute(fd, "unix:dev").equals(Files.getAttribute(dir, "unix:dev"));
                } catch (IOException e) {
                    return false; // closed while listing
                }
            }).count();
        }
    }
}
