package dev.fusepanama.examples.mirror;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fusepanama.Errno;
import dev.fusepanama.Posix;
import dev.fusepanama.libc.ThreadContext;
import dev.fusepanama.libc.Xattr;
import dev.fusepanama.testkit.Emulation;
import dev.fusepanama.testkit.MountTest;
import dev.fusepanama.testkit.Os;
import dev.fusepanama.testkit.TestMount;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
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
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What the POSIX suite cannot show by comparison: a file stays itself through the mirror whatever
 * happens to its names, in the mirror or in the source; one node per source inode; a source
 * changed under the mirror leads nowhere outside it; names and data arrive in the source byte
 * for byte; who owns what a caller creates; every descriptor the mirror holds is closed when the
 * kernel forgets a node or the mount ends.
 */
@MountTest
@Timeout(value = 120, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class InodeMirrorTest {
    @TempDir
    Path tmp;

    private Path source;

    private TestMount mount(InodeMirror fs) throws IOException {
        return TestMount.mount(fs, fs.mountOptions().allowOther(true).build());
    }

    private InodeMirror mirror() throws IOException {
        source = Files.createDirectory(tmp.resolve("source"));
        return InodeMirror.of(source);
    }

    private static String read(int fd) {
        return new String(Os.pread(fd, 100, 0), StandardCharsets.UTF_8);
    }

    /** Replaced by a rename in the mirror while open: fstat and reads answer from the old file, as on the source's own filesystem. */
    @Test
    void aFileReplacedInTheMirrorWhileOpenIsStillItself() throws Exception {
        try (TestMount m = mount(mirror())) {
            Files.writeString(m.path("f"), "old");
            long oldIno = Os.lstat(Os.bytes(m.path("f"))).ino();
            int fd = Os.open(m.path("f"), Posix.O_RDONLY);
            try {
                Files.writeString(m.path("g"), "newer");
                Files.move(m.path("g"), m.path("f"), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
                Os.StatResult st = Os.fstat(fd);
                assertEquals(oldIno, st.ino(), "fstat names the file that was opened");
                assertEquals(3, st.size());
                assertEquals(0, st.nlink(), "it has no name left");
                assertEquals("old", read(fd));
                assertEquals("newer", Files.readString(m.path("f")));
            } finally {
                Os.close(fd);
            }
        }
    }

    /**
     * Replaced in the source while open through the mirror (an editor's save, a package
     * upgrade): the name opens the new file at once, and the open file keeps reading the old.
     */
    @Test
    void aFileReplacedInTheSourceWhileOpenOpensAgainAtOnce() throws Exception {
        try (TestMount m = mount(mirror())) {
            Files.writeString(source.resolve("f"), "one");
            int fd = Os.open(m.path("f"), Posix.O_RDONLY);
            try {
                long oldIno = Os.fstat(fd).ino();
                Files.writeString(source.resolve("f.new"), "two");
                Files.move(source.resolve("f.new"), source.resolve("f"), StandardCopyOption.ATOMIC_MOVE);
                assertEquals("two", Files.readString(m.path("f")));
                assertEquals("one", read(fd));
                assertEquals(oldIno, Os.fstat(fd).ino());
                assertEquals(Files.getAttribute(source.resolve("f"), "unix:ino"), Os.lstat(Os.bytes(m.path("f"))).ino());
            } finally {
                Os.close(fd);
            }
        }
    }

    /** Two hard links are one node, so the kernel sees one inode under both names. */
    @Test
    void hardLinksInTheSourceAreOneNode() throws Exception {
        InodeMirror fs = mirror();
        Files.writeString(source.resolve("a"), "shared");
        Files.createLink(source.resolve("b"), source.resolve("a"));
        try (TestMount m = mount(fs)) {
            assertTrue(Files.isSameFile(m.path("a"), m.path("b")));
            assertEquals(Os.lstat(Os.bytes(m.path("a"))).ino(), Os.lstat(Os.bytes(m.path("b"))).ino());
            assertEquals(1, fs.nodes(), "one node for both names");
            Files.writeString(m.path("b"), "changed");
            assertEquals("changed", Files.readString(m.path("a")));
        }
    }

    /** When the kernel forgets nodes (here: its caches dropped), their descriptors are closed. */
    @Test
    void forgottenNodesCloseTheirDescriptors() throws Exception {
        InodeMirror fs = mirror();
        for (int i = 0; i < 200; i++) {
            Files.writeString(source.resolve("f" + i), "x");
        }
        try (TestMount m = mount(fs)) {
            for (int i = 0; i < 200; i++) {
                Os.lstat(Os.bytes(m.path("f" + i)));
            }
            assertTrue(fs.nodes() >= 200, "a node per file looked up: " + fs.nodes());
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (fs.nodes() > 0 && System.nanoTime() < deadline) {
                Files.writeString(Path.of("/proc/sys/vm/drop_caches"), "2");
                Thread.sleep(100);
            }
            assertEquals(0, fs.nodes(), "every node forgotten");
            assertEquals(1, fs.descriptorsHeld(), "only the root node holds a descriptor");
            assertTrue(descriptorsOf(source) <= 2, "only the source's own descriptors are left (its node's, and the one "
                    + "open_by_handle_at takes): " + descriptorsOf(source));
        }
    }

    /** A mirror that keeps at most four descriptors of nodes no open file holds. */
    private InodeMirror fewDescriptors() throws IOException {
        source = Files.createDirectory(tmp.resolve("source"));
        return InodeMirror.builder(source).passthrough(true).descriptors(4).build();
    }

    /** Far more nodes than descriptors kept: every file answers, right, and the descriptors held stay within the bound. */
    @Test
    void moreNodesThanDescriptorsAreAllServed() throws Exception {
        InodeMirror fs = fewDescriptors();
        for (int i = 0; i < 300; i++) {
            Files.writeString(source.resolve("f" + i), "file " + i);
        }
        Files.createDirectories(source.resolve("a/b/c"));
        Files.writeString(source.resolve("a/b/c/deep"), "deep");
        try (TestMount m = mount(fs)) {
            for (int round = 0; round < 2; round++) {
                for (int i = 0; i < 300; i++) {
                    assertEquals(("file " + i).length(), Os.lstat(Os.bytes(m.path("f" + i))).size());
                    assertEquals("file " + i, Files.readString(m.path("f" + i)));
                }
                assertEquals("deep", Files.readString(m.path("a/b/c/deep")));
            }
            assertTrue(fs.nodes() >= 300, "the kernel holds a node per file: " + fs.nodes());
            assertTrue(fs.descriptorsHeld() <= 1 + 4, "the root's and at most four: " + fs.descriptorsHeld());
        }
    }

    /** Stats enough other files that every descriptor of a node without an open file has been closed since. */
    private static void turnTheDescriptorsOver(TestMount m, Path source) throws IOException {
        for (int i = 0; i < 20; i++) {
            Path f = source.resolve("other" + i);
            if (!Files.exists(f)) Files.writeString(f, "x");
            Os.lstat(Os.bytes(m.path("other" + i)));
        }
    }

    /**
     * ext4 gives a deleted file's inode number to the next file at once: a node whose file was
     * deleted in the source and which held no descriptor then is not that next file (its handle
     * differs), so an O_PATH client of the old file gets ESTALE, not the new file's attributes.
     */
    @Test
    void aDeletedFilesNodeIsNotTheNextFileToGetItsInodeNumber() throws Exception {
        InodeMirror fs = fewDescriptors();
        Files.writeString(source.resolve("old"), "old file");
        try (TestMount m = mount(fs)) {
            int client = Os.open(Os.bytes(m.path("old")), Posix.O_PATH, 0);
            assertTrue(client >= 0, "open O_PATH: " + client);
            try {
                long ino = Os.fstat(client).ino();
                turnTheDescriptorsOver(m, source);
                Files.delete(source.resolve("old"));
                Path next = null;
                for (int i = 0; i < 50 && next == null; i++) {
                    Path candidate = Files.writeString(source.resolve("new" + i), "the next file, longer");
                    if ((long) Files.getAttribute(candidate, "unix:ino") == ino) next = candidate;
                }
                Assumptions.assumeTrue(next != null, "the source's filesystem did not give the number again");
                assertEquals("the next file, longer", Files.readString(m.path(next.getFileName().toString())));
                assertEquals(-Errno.ESTALE, errnoOf(() -> Os.fstat(client)), "the old file is gone");
            } finally {
                Os.close(client);
            }
        }
    }

    /**
     * A file whose last name is removed through the mirror keeps its node's descriptor while the
     * kernel holds the node, though no open file of the mirror holds it: an O_PATH client still
     * reaches it after the mirror's descriptors went round.
     */
    @Test
    void aFileUnlinkedThroughTheMirrorStaysItselfForItsClients() throws Exception {
        InodeMirror fs = fewDescriptors();
        Files.writeString(source.resolve("f"), "still here");
        Files.createDirectory(source.resolve("d"));
        try (TestMount m = mount(fs)) {
            int file = Os.open(Os.bytes(m.path("f")), Posix.O_PATH, 0);
            int dir = Os.open(Os.bytes(m.path("d")), Posix.O_PATH | Posix.O_DIRECTORY, 0);
            try {
                Files.delete(m.path("f"));
                Files.delete(m.path("d"));
                turnTheDescriptorsOver(m, source);
                Os.StatResult st = Os.fstat(file);
                assertEquals(0, st.nlink());
                assertEquals(10, st.size());
                assertEquals(Posix.S_IFDIR, Os.fstat(dir).mode() & Posix.S_IFMT);
            } finally {
                Os.close(file);
                Os.close(dir);
            }
        }
    }

    /** A removal that fails (a directory not empty) leaves its node to the bound like any other. */
    @Test
    void aNameThatStaysDoesNotKeepItsNodesDescriptor() throws Exception {
        InodeMirror fs = fewDescriptors();
        for (int i = 0; i < 10; i++) {
            Files.createDirectories(source.resolve("full" + i + "/inside"));
        }
        try (TestMount m = mount(fs)) {
            for (int i = 0; i < 10; i++) {
                assertEquals(-Errno.ENOTEMPTY, Os.rmdir(Os.bytes(m.path("full" + i))));
            }
            turnTheDescriptorsOver(m, source);
            assertTrue(fs.descriptorsHeld() <= 1 + 4, "the root's and at most four: " + fs.descriptorsHeld());
        }
    }

    /** Descriptors of files and directories still open when the connection ends are closed, and the nodes'. */
    @Test
    void everyDescriptorIsClosedWhenTheMountEnds() throws Exception {
        InodeMirror fs = mirror();
        Files.createDirectory(source.resolve("d"));
        Files.writeString(source.resolve("d/f"), "x");
        TestMount.ensureFusectl();
        try (TestMount m = mount(fs)) {
            long connection = (long) Files.getAttribute(m.root(), "unix:dev");
            int file = Os.open(m.path("d/f"), Posix.O_RDONLY);
            int dir = Os.open(Os.bytes(m.path("d")), Posix.O_RDONLY | Posix.O_DIRECTORY, 0);
            assertTrue(descriptorsOf(source) >= 5, "the source, two nodes, the file and the directory");
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

    /** With passthrough, where this mount can have it, open files' data is the kernel's to move. */
    @Test
    void passthroughWhereTheMountCan() throws Exception {
        boolean expected = TestMount.passthroughExpected();
        try (TestMount m = mount(mirror())) {
            String how = m.handle().describe();
            assertEquals(expected, how.contains("kernel passthrough"), how);
            byte[] data = new byte[1 << 20];
            new java.util.Random(7).nextBytes(data);
            Files.write(m.path("big"), data);
            assertArrayEquals(data, Files.readAllBytes(m.path("big")));
            assertArrayEquals(data, Files.readAllBytes(source.resolve("big")));
        }
    }

    private Path outside;

    private void outside() throws IOException {
        outside = Files.createDirectory(tmp.resolve("outside"));
        Files.writeString(outside.resolve("secret"), "outside the source");
        Files.writeString(outside.resolve("victim"), "must survive");
        Files.setPosixFilePermissions(outside.resolve("victim"), PosixFilePermissions.fromString("rw-r--r--"));
    }

    /**
     * The race a hostile source can win against a pass-through by paths: the kernel has resolved
     * {@code dir} (a descriptor of it is held, and names in it are cached), then {@code dir} in
     * the source is moved away and a link to a directory outside put in its place. The mirror
     * knows {@code dir} by its inode, not its name: every operation through the old {@code dir}
     * reaches the directory it always was (now {@code dir.moved}), never the link's target.
     */
    @Test
    void aDirectorySwappedForALinkOutsideLeadsNowhereOutside() throws Exception {
        source = Files.createDirectory(tmp.resolve("source"));
        InodeMirror fs = InodeMirror.builder(source).cacheSeconds(3600).passthrough(true).build();
        outside();
        Files.createDirectories(source.resolve("dir"));
        Files.writeString(source.resolve("dir/inside"), "in");
        Files.writeString(source.resolve("dir/victim"), "inside");
        try (TestMount m = mount(fs)) {
            int dirFd = Os.open(Os.bytes(m.path("dir")), Posix.O_PATH | Posix.O_DIRECTORY, 0);
            assertTrue(dirFd >= 0, "open dir: " + dirFd);
            try {
                Path viaFd = Path.of("/proc/self/fd/" + dirFd);
                byte[] victim = Os.bytes(viaFd.resolve("victim"));
                assertEquals(6, Os.lstat(victim).size(), "victim looked up before the swap");

                Files.move(source.resolve("dir"), source.resolve("dir.moved"));
                Files.createSymbolicLink(source.resolve("dir"), outside);

                assertEquals(2, Os.lstat(Os.bytes(viaFd.resolve("inside"))).size(), "still the directory it was");
                assertEquals(-2, errnoOf(() -> Os.lstat(Os.bytes(viaFd.resolve("secret")))), "outside's names are not in it");
                int planted = Os.open(Os.bytes(viaFd.resolve("planted")), Posix.O_CREAT | Posix.O_WRONLY, 0644);
                assertTrue(planted >= 0, "create: " + planted);
                Os.close(planted);
                assertEquals(0, Os.mkdir(Os.bytes(viaFd.resolve("newdir")), 0755));
                assertEquals(0, Os.chmod(victim, 0777));
                assertEquals(0, Os.truncate(victim, 0));
                assertEquals(0, Os.unlink(victim));

                assertTrue(Files.exists(source.resolve("dir.moved/planted")) && Files.isDirectory(source.resolve("dir.moved/newdir")),
                        "made in the directory the kernel resolved");
                assertFalse(Files.exists(source.resolve("dir.moved/victim")), "its victim removed");
                try (var listing = Files.list(outside)) {
                    assertEquals(List.of("secret", "victim"), listing.map(p -> p.getFileName().toString()).sorted().toList());
                }
                assertEquals("must survive", Files.readString(outside.resolve("victim")));
                assertEquals("rw-r--r--", PosixFilePermissions.toString(Files.getPosixFilePermissions(outside.resolve("victim"))));
            } finally {
                Os.close(dirFd);
            }
        }
    }

    private static int errnoOf(Runnable call) {
        try {
            call.run();
            return 0;
        } catch (Os.OsException e) {
            return -e.errno;
        }
    }

    @Test
    void linksInTheSourceAreShownAsLinksWithTheirTargetBytes() throws Exception {
        InodeMirror fs = mirror();
        outside();
        Files.createSymbolicLink(source.resolve("abs"), outside.resolve("secret"));
        Files.createSymbolicLink(source.resolve("up"), Path.of("../../../.."));
        byte[] odd = {'t', (byte) 0xff, '/', (byte) 0xc3};
        assertEquals(0, Os.symlink(odd, Os.bytes(source.resolve("odd"))));
        try (TestMount m = mount(fs)) {
            assertEquals(Posix.S_IFLNK, Os.lstat(Os.bytes(m.path("abs"))).mode() & Posix.S_IFMT);
            assertArrayEquals(Os.bytes(outside.resolve("secret")), Os.readlink(Os.bytes(m.path("abs"))));
            assertArrayEquals("../../../..".getBytes(), Os.readlink(Os.bytes(m.path("up"))));
            assertArrayEquals(odd, Os.readlink(Os.bytes(m.path("odd"))));
            assertEquals(odd.length, Os.lstat(Os.bytes(m.path("odd"))).size());
        }
    }

    @Test
    void aNameThatIsNotUtf8KeepsItsBytesInTheSource() throws Exception {
        InodeMirror fs = mirror();
        byte[] name = {'a', (byte) 0xff, (byte) 0xfe, 'b', (byte) 0x80};
        byte[] renamed = {(byte) 0xc3, '(', 'z'};
        int fd = Os.open(Os.child(source, name), Posix.O_CREAT | Posix.O_WRONLY, 0644);
        Os.pwrite(fd, "payload".getBytes(), 0);
        Os.close(fd);
        try (TestMount m = mount(fs)) {
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

    /** The mirror with file data passed through to the kernel where the mount can, or spliced through the mirror. */
    private InodeMirror mirror(String how) throws IOException {
        source = Files.createDirectory(tmp.resolve("source"));
        return InodeMirror.builder(source).passthrough(how.equals("passthrough")).build();
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"passthrough", "splice"})
    void dataArrivesInTheSourceByteForByte(String how) throws Exception {
        InodeMirror fs = mirror(how);
        byte[] data = new byte[(8 << 20) + 12345];
        new Random(42).nextBytes(data);
        Files.write(source.resolve("in"), data);
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

    /**
     * A client's O_DIRECT read is served, the mirror leaving the flag out of its own open. Not
     * under emulation: the x86-64 kernel's O_DIRECT bit is arm64's O_DIRECTORY ({@link Emulation}).
     */
    @ParameterizedTest
    @ValueSource(strings = {"passthrough", "splice"})
    void anODirectReadIsServed(String how) throws Exception {
        Assumptions.assumeFalse(Emulation.active(), "the kernel's open flags are numbered for another architecture than this JVM's");
        InodeMirror fs = mirror(how);
        byte[] data = new byte[(2 << 20) + 12345];
        new Random(43).nextBytes(data);
        Files.write(source.resolve("in"), data);
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
        InodeMirror fs = mirror();
        Files.setPosixFilePermissions(source, PosixFilePermissions.fromString("rwxrwxrwx"));
        Path shared = Files.createDirectory(source.resolve("shared"));
        assertEquals(0, Os.chown(Os.bytes(shared), 0, 4321));
        assertEquals(0, Os.chmod(Os.bytes(shared), 02777));
        List<String> nobody = List.of("setpriv", "--reuid=65534", "--regid=65533", "--clear-groups", "--");
        try (TestMount m = mount(fs)) {
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
        try (TestMount m = mount(mirror(how))) {
            Path f = m.path("setid");
            Files.writeString(f, "x");
            assertEquals(0, Os.chmod(Os.bytes(f), 06777));
            run(List.of("setpriv", "--reuid=65534", "--regid=65533", "--clear-groups", "--"), "sh", "-c", "echo more >> " + f);
            assertEquals(0777, Os.lstat(Os.bytes(source.resolve("setid"))).mode() & 07777, "set-ID bits cleared in the source");
            assertEquals("x" + "more\n", Files.readString(f));
        }
    }

    /**
     * With POSIX ACLs, as on the source's own filesystem: a directory's default ACL, not the
     * caller's umask, gives a new file its mode; without one the umask does; and an ACL entry
     * lets in a user whom the mode bits would refuse (the kernel checks by the ACL).
     */
    @Test
    void posixAclsDecideAsOnTheSource() throws Exception {
        try (TestMount m = mount(mirror())) {
            Files.createDirectory(m.path("acl"));
            run(List.of(), "setfacl", "-d", "-m", "u::rwx,g::r-x,o::---", m.path("acl").toString());
            run(List.of(), "sh", "-c", "umask 722; touch " + m.path("acl/f") + " " + m.path("plain"));
            assertEquals(0640, Os.lstat(Os.bytes(source.resolve("acl/f"))).mode() & 07777, "the default ACL, not the umask");
            assertEquals(0044, Os.lstat(Os.bytes(source.resolve("plain"))).mode() & 07777, "the umask");
            Path secret = Files.writeString(m.path("secret"), "s");
            assertEquals(0, Os.chmod(Os.bytes(secret), 0600));
            run(List.of(), "setfacl", "-m", "u:65534:r", secret.toString());
            run(List.of("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--"), "cat", secret.toString());
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
        try (TestMount m = mount(mirror())) {
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
        outside();
        IOException missing = assertThrows(IOException.class, () -> InodeMirror.of(tmp.resolve("absent")));
        assertTrue(missing.getMessage().contains("ENOENT") && missing.getMessage().contains("absent"), missing.getMessage());
        IOException file = assertThrows(IOException.class, () -> InodeMirror.of(outside.resolve("secret")));
        assertTrue(file.getMessage().contains("ENOTDIR"), file.getMessage());
        assertThrows(IllegalArgumentException.class, () -> InodeMirror.builder(tmp).cacheSeconds(-1));
    }

    /**
     * The mirror is made on the application's thread; the umask of 0 its libfuse workers set for
     * themselves (each in its own fs_struct) must not reach that thread, nor the one that closes it.
     */
    @Test
    void makingAndClosingAMirrorLeavesTheCallersUmaskAlone() throws Exception {
        int previous = ThreadContext.umask(022);
        try {
            mirror().close();
            Path created = Files.createFile(tmp.resolve("created-after"));
            assertEquals("rw-r--r--", PosixFilePermissions.toString(Files.getPosixFilePermissions(created)));
            assertEquals(022, ThreadContext.umask(022), "this thread's umask");
        } finally {
            ThreadContext.umask(previous);
        }
    }

    /**
     * Extended attributes reach the file itself by its descriptor's /proc name, at any depth and
     * on the top directory; a symbolic link's own are out of reach and answer as absent.
     */
    @Test
    void extendedAttributesReachTheSourceFile() throws Exception {
        InodeMirror fs = mirror();
        Files.createDirectories(source.resolve("d/e"));
        Files.writeString(source.resolve("d/e/f"), "x");
        Files.createSymbolicLink(source.resolve("link"), Path.of("d/e/f"));
        try (TestMount m = mount(fs)) {
            byte[] f = Os.bytes(m.path("d/e/f"));
            assertEquals(0, Os.setxattr(f, "user.a", "v1".getBytes(), 0));
            assertArrayEquals("v1".getBytes(), Os.getxattr(source.resolve("d/e/f").toString().getBytes(), "user.a", 10).data(),
                    "set in the source");
            assertArrayEquals("v1".getBytes(), Os.getxattr(f, "user.a", 10).data());
            assertArrayEquals("v1".getBytes(), Os.getxattr(Os.bytes(m.path("link")), "user.a", 10).data(), "through the link");
            assertEquals(List.of("user.a"), Os.listxattr(f, 100).names());
            assertEquals(0, Os.removexattr(f, "user.a"));
            assertEquals(-Errno.ENODATA, Os.getxattr(f, "user.a", 10).rc());
            assertEquals(0, Os.setxattr(Os.bytes(m.root()), "user.top", "t".getBytes(), 0), "the top directory");
            assertArrayEquals("t".getBytes(), Os.getxattr(source.toString().getBytes(), "user.top", 10).data());
        }
    }

    /**
     * This process's descriptors into {@code dir}: those whose path lies in it, and those on
     * {@code dir}'s filesystem through a mount no namespace shows (whose paths start at that
     * mount's own root).
     */
    private static long descriptorsOf(Path dir) throws IOException {
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

    /** A symbolic link's own extended attributes (trusted.*, as root) reach the link in the source, not its target. */
    @Test
    void aLinksOwnExtendedAttributesReachTheLinkInTheSource() throws Exception {
        InodeMirror fs = mirror();
        Files.writeString(source.resolve("target"), "t");
        Files.createSymbolicLink(source.resolve("link"), Path.of("target"));
        try (TestMount m = mount(fs); java.lang.foreign.Arena a = java.lang.foreign.Arena.ofConfined()) {
            java.lang.foreign.MemorySegment link = a.allocateFrom(m.path("link").toString());
            java.lang.foreign.MemorySegment name = a.allocateFrom("trusted.own");
            java.lang.foreign.MemorySegment v = a.allocate(16);
            assertEquals(0, Xattr.lsetxattr(link, name, a.allocateFrom("v"), 1, 0));
            assertEquals(1, Xattr.lgetxattr(a.allocateFrom(source.resolve("link").toString()), name, v, 16), "on the link in the source");
            assertEquals(-Errno.ENODATA, Xattr.lgetxattr(a.allocateFrom(source.resolve("target").toString()), name, v, 16),
                    "not on its target");
            assertEquals(1, Xattr.lgetxattr(link, name, v, 16));
            assertEquals(0, Xattr.lremovexattr(link, name));
            assertEquals(-Errno.ENODATA, Xattr.lgetxattr(link, name, v, 16));
        }
    }

    /**
     * A listing answers readdirplus: each entry comes with its node, counted once as a lookup, so
     * that {@code ls -l} needs no lookup per entry; when the kernel drops its caches it forgets
     * each, and none is left.
     */
    @Test
    void aListingGivesTheKernelEveryNodeAndItsForgettingLeavesNone() throws Exception {
        InodeMirror fs = mirror();
        for (int i = 0; i < 300; i++) Files.writeString(source.resolve("f" + i), "x");
        try (TestMount m = mount(fs)) {
            assertEquals(302, Os.listBytes(m.root()).size(), "300 files, . and ..");
            // The kernel asks for the first batch with its nodes (READDIRPLUS_AUTO), the rest once lookups follow.
            int listed = fs.nodes();
            assertTrue(listed > 100 && listed <= 300, "nodes for the entries of the first batch, without a lookup: " + listed);
            for (int i = 0; i < 300; i++) assertEquals(1, Os.lstat(Os.bytes(m.path("f" + i))).size());
            assertEquals(300, fs.nodes(), "one node per file, whether listed or looked up");
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (fs.nodes() > 0 && System.nanoTime() < deadline) {
                Files.writeString(Path.of("/proc/sys/vm/drop_caches"), "2");
                Thread.sleep(50);
            }
            assertEquals(0, fs.nodes(), "every node forgotten once the kernel dropped its entries");
            assertEquals("x", Files.readString(m.path("f7")), "and looked up again");
        }
    }

    /**
     * The mirror's own lookup count, raced: four processes stat, list ({@code ls -lR}, whose
     * READDIRPLUS entries count) and read 200 files in four directories while the kernel drops
     * its caches every 20 ms, so forgets arrive between a lookup and its entry and in the middle
     * of readdirplus batches of the same nodes. A node forgotten while the kernel still held it
     * would answer the kernel's next request of it with ESTALE and fail a client; one counted
     * more than the kernel took would stay after the kernel forgot everything.
     */
    @Test
    void forgetsRacingLookupsAndListingsDropNoNodeTheKernelHoldsAndLeaveNone() throws Exception {
        InodeMirror fs = mirror();
        for (int d = 0; d < 4; d++) {
            Path dir = Files.createDirectory(source.resolve("d" + d));
            for (int i = 0; i < 50; i++) Files.writeString(dir.resolve("f" + i), "file " + d + "/" + i);
        }
        try (TestMount m = mount(fs)) {
            String script = "end=$(($(date +%s) + 5)); while [ $(date +%s) -lt $end ]; do"
                    + " stat -c %i \"$1\"/d*/f* > /dev/null || exit 1; ls -lR \"$1\" > /dev/null || exit 1;"
                    + " [ \"$(cat \"$1/d2/f17\")\" = 'file 2/17' ] || exit 3; done";
            List<Process> clients = new ArrayList<>();
            int drops = 0;
            try {
                for (int c = 0; c < 4; c++) {
                    clients.add(new ProcessBuilder("sh", "-c", script, "client", m.root().toString()).redirectErrorStream(true).start());
                }
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
                while (System.nanoTime() < deadline) {
                    Files.writeString(Path.of("/proc/sys/vm/drop_caches"), "2");
                    drops++;
                    Thread.sleep(20);
                }
                for (Process p : clients) {
                    assertTrue(p.waitFor(60, TimeUnit.SECONDS), "a client ran too long");
                    assertEquals(0, p.exitValue(), "a client's stat, ls or cat failed: "
                            + new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
                }
            } finally {
                clients.forEach(Process::destroyForcibly);
            }
            assertTrue(drops > 20, "the kernel was made to forget often: " + drops);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (fs.nodes() > 0 && System.nanoTime() < deadline) {
                Files.writeString(Path.of("/proc/sys/vm/drop_caches"), "2");
                Thread.sleep(100);
            }
            assertEquals(0, fs.nodes(), "every node forgotten once the kernel forgot: none counted more than it took");
            assertEquals(1, fs.descriptorsHeld(), "only the root node holds a descriptor");
            assertEquals("file 3/49", Files.readString(m.path("d3/f49")), "and looked up again");
        }
    }

    /**
     * A filesystem mounted inside the source is hidden, as passthrough_hp hides it: its inode
     * numbers could equal the source's, and {@code cp -a} or {@code tar} would take two files for
     * hard links of one. Its name is listed; looking it up answers EOPNOTSUPP.
     */
    @Test
    void aFilesystemMountedInsideTheSourceIsHidden() throws Exception {
        InodeMirror fs = mirror();
        Path inner = Files.createDirectory(source.resolve("inner"));
        run(List.of(), "mount", "-t", "tmpfs", "mirror-inner", inner.toString());
        try (TestMount m = mount(fs)) {
            Files.writeString(inner.resolve("f"), "inside the inner mount");
            assertTrue(Os.listBytes(m.root()).stream().anyMatch(n -> Arrays.equals(n, "inner".getBytes())), "listed");
            assertEquals(-Errno.EOPNOTSUPP, errnoOf(() -> Os.lstat(Os.bytes(m.path("inner")))));
            assertEquals(0, fs.nodes(), "no node for it");
        } finally {
            run(List.of(), "umount", inner.toString());
        }
    }
}
