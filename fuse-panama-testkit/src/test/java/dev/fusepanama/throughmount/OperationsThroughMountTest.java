package dev.fusepanama.throughmount;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fusepanama.Errno;
import dev.fusepanama.FileInfo;
import dev.fusepanama.FuseFileSystem;
import dev.fusepanama.KernelSettings;
import dev.fusepanama.PollHandle;
import dev.fusepanama.Posix;
import dev.fusepanama.Stat;
import dev.fusepanama.Timespec;
import dev.fusepanama.testing.ScratchFileSystem;
import dev.fusepanama.testkit.MountTest;
import dev.fusepanama.testkit.Os;
import dev.fusepanama.testkit.TestMount;
import java.lang.foreign.Arena;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Every operation of {@code struct fuse_operations}, reached through the kernel by an ordinary
 * client (java.nio.file or a plain system call), arriving at the Java method and answering.
 * Attribute and entry caching are off so each client call becomes a request.
 */
@MountTest
@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class OperationsThroughMountTest {
    ScratchFileSystem fs;
    TestMount mount;

    static KernelSettings uncached() {
        return KernelSettings.builder().attrTimeout(0).entryTimeout(0).negativeEntries(0).build();
    }

    @BeforeEach
    void mount() throws Exception {
        fs = new ScratchFileSystem();
        mount = TestMount.mount(fs, uncached());
    }

    @AfterEach
    void unmount() throws Exception {
        mount.close();
    }

    Path p(String name) {
        return mount.path(name);
    }

    byte[] b(String name) {
        return Os.bytes(p(name));
    }

    @Test
    void getattrReportsModeSizeLinksAndTimes() throws Exception {
        Files.write(p("f"), new byte[1234]);
        Instant t = Instant.parse("2020-01-02T03:04:05.123456789Z");
        Files.setLastModifiedTime(p("f"), FileTime.from(t));
        Os.StatResult st = Os.lstat(b("f"));
        assertEquals(Posix.S_IFREG, st.mode() & Posix.S_IFMT);
        assertEquals(1234, st.size());
        assertEquals(1, st.nlink());
        assertEquals(t.getEpochSecond(), st.mtimeSec());
        assertEquals(t.getNano(), st.mtimeNsec());
        assertEquals(Posix.S_IFDIR, Os.lstat(Os.bytes(mount.root())).mode() & Posix.S_IFMT);
        assertEquals(-Errno.ENOENT, assertThrows(Os.OsException.class, () -> Os.lstat(b("missing"))).errno * -1);
        assertTrue(fs.calls("getattr") > 0);
    }

    @Test
    void symlinkAndReadlink() throws Exception {
        Files.createSymbolicLink(p("link"), Path.of("some/where/else"));
        assertEquals(Path.of("some/where/else"), Files.readSymbolicLink(p("link")));
        assertTrue(Files.isSymbolicLink(p("link")));
        assertEquals(1, fs.calls("symlink"));
        assertTrue(fs.calls("readlink") >= 1);
    }

    @Test
    void mknodCreatesAFifo() {
        assertEquals(0, Os.mknod(b("fifo"), Posix.S_IFIFO | 0644, 0));
        assertEquals(Posix.S_IFIFO, Os.lstat(b("fifo")).mode() & Posix.S_IFMT);
        assertEquals(1, fs.calls("mknod"));
    }

    @Test
    void mkdirAndRmdirIncludingNotEmpty() throws Exception {
        Files.createDirectory(p("d"));
        Files.createFile(p("d/inner"));
        assertThrows(DirectoryNotEmptyException.class, () -> Files.delete(p("d")));
        Files.delete(p("d/inner"));
        Files.delete(p("d"));
        assertTrue(Files.notExists(p("d")));
        assertEquals(1, fs.calls("mkdir"));
        assertEquals(2, fs.calls("rmdir"));
        assertEquals(1, fs.calls("unlink"));
    }

    @Test
    void renameWithNoReplaceAndExchange() throws Exception {
        Files.writeString(p("a"), "A");
        Files.writeString(p("b"), "B");
        // The VFS refuses NOREPLACE onto an existing name itself; onto a free one the flag reaches us.
        assertEquals(-Errno.EEXIST, Os.renameat2(b("a"), b("b"), Posix.RENAME_NOREPLACE));
        assertEquals(0, Os.renameat2(b("a"), b("a2"), Posix.RENAME_NOREPLACE));
        assertEquals(Posix.RENAME_NOREPLACE, fs.lastRenameFlags);
        assertEquals(0, Os.renameat2(b("a2"), b("a"), 0));
        assertEquals(0, Os.renameat2(b("a"), b("b"), Posix.RENAME_EXCHANGE));
        assertEquals("B", Files.readString(p("a")));
        assertEquals("A", Files.readString(p("b")));
        Files.move(p("a"), p("c"), StandardCopyOption.REPLACE_EXISTING);
        assertEquals("B", Files.readString(p("c")));
        assertTrue(Files.notExists(p("a")));
        assertEquals(4, fs.calls("rename"));
    }

    @Test
    void hardLinkSharesContentAndCountsLinks() throws Exception {
        Files.writeString(p("orig"), "x");
        Files.createLink(p("second"), p("orig"));
        assertEquals(2, Os.lstat(b("orig")).nlink());
        assertEquals("x", Files.readString(p("second")));
        assertEquals(1, fs.calls("link"));
    }

    @Test
    void chmodChownAndTruncate() throws Exception {
        Files.writeString(p("f"), "0123456789");
        Files.setPosixFilePermissions(p("f"), PosixFilePermissions.fromString("rwx--x---"));
        assertEquals(0710, Os.lstat(b("f")).mode() & 07777);
        assertEquals(0, Os.chown(b("f"), 1234, 5678));
        Os.StatResult st = Os.lstat(b("f"));
        assertEquals(1234, st.uid());
        assertEquals(5678, st.gid());
        assertEquals(0, Os.truncate(b("f"), 4));
        assertEquals("0123", Files.readString(p("f")));
        try (FileChannel ch = FileChannel.open(p("f"), StandardOpenOption.WRITE)) {
            ch.truncate(2);
        }
        assertEquals("01", Files.readString(p("f")));
        assertEquals(1, fs.calls("chmod"));
        assertEquals(1, fs.calls("chown"));
        assertEquals(2, fs.calls("truncate"));
    }

    @Test
    void createOpenReadWriteFlushRelease() throws Exception {
        try (FileChannel ch = FileChannel.open(p("f"), StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.wrap("hello world".getBytes(StandardCharsets.UTF_8)), 0);
            ch.write(ByteBuffer.wrap("W".getBytes(StandardCharsets.UTF_8)), 6);
        }
        assertThrows(FileAlreadyExistsException.class, () -> Files.createFile(p("f")));
        try (FileChannel ch = FileChannel.open(p("f"), StandardOpenOption.READ)) {
            ByteBuffer buf = ByteBuffer.allocate(100);
            ch.read(buf, 3);
            assertEquals("lo World", new String(buf.array(), 0, buf.position(), StandardCharsets.UTF_8));
        }
        Files.writeString(p("f"), "new"); // O_TRUNC arrives as a truncate after the open (atomic_o_trunc is off)
        assertEquals("new", Files.readString(p("f")));
        assertEquals(1, fs.calls("create"));
        assertTrue(fs.calls("open") >= 3);
        assertTrue(fs.calls("read") >= 2);
        assertTrue(fs.calls("write") >= 2);
        assertTrue(fs.calls("flush") >= 3);
        awaitCalls("release", 4);
    }

    @Test
    void bigReadsAndWritesCrossRequestBoundaries() throws Exception {
        byte[] data = new byte[3 * 1024 * 1024 + 17];
        new java.util.Random(7).nextBytes(data);
        Files.write(p("big"), data);
        assertArrayEquals(data, Files.readAllBytes(p("big")));
    }

    @Test
    void statfsReportsTheFilesystemsNumbers() throws Exception {
        Os.StatVfsResult st = Os.statvfs(mount.root());
        assertEquals(4096, st.bsize());
        assertEquals(1000, st.blocks());
        assertEquals(600, st.bfree());
        assertEquals(500, st.bavail());
        assertEquals(255, st.namemax());
        assertEquals(1000L * 4096, Files.getFileStore(mount.root()).getTotalSpace());
        assertTrue(fs.calls("statfs") >= 2);
    }

    @Test
    void fsyncAndFdatasync() throws Exception {
        try (FileChannel ch = FileChannel.open(p("f"), StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.wrap(new byte[10]));
            ch.force(true);
            ch.force(false);
        }
        assertEquals(1, fs.calls("fsync"));
        assertEquals(1, fs.calls("fdatasync"));
    }

    @Test
    void extendedAttributes() {
        byte[] f = b("f");
        assertEquals(0, Os.close(Os.open(f, Posix.O_CREAT | Posix.O_WRONLY, 0644)));
        assertEquals(0, Os.setxattr(f, "user.one", "1".getBytes(), 0));
        assertEquals(0, Os.setxattr(f, "user.two", "22".getBytes(), Posix.XATTR_CREATE));
        assertEquals(-Errno.EEXIST, Os.setxattr(f, "user.two", "x".getBytes(), Posix.XATTR_CREATE));
        assertEquals(-Errno.ENODATA, Os.setxattr(f, "user.three", "x".getBytes(), Posix.XATTR_REPLACE));
        assertEquals(2, Os.getxattr(f, "user.two", 0).rc(), "size query");
        assertArrayEquals("22".getBytes(), Os.getxattr(f, "user.two", 64).data());
        assertEquals(-Errno.ERANGE, Os.getxattr(f, "user.two", 1).rc());
        assertEquals(-Errno.ENODATA, Os.getxattr(f, "user.none", 64).rc());
        assertEquals(18, Os.listxattr(f, 0).rc(), "size query: user.one\\0user.two\\0");
        assertEquals(List.of("user.one", "user.two"), Os.listxattr(f, 64).names());
        assertEquals(-Errno.ERANGE, Os.listxattr(f, 10).rc());
        assertEquals(0, Os.removexattr(f, "user.one"));
        assertEquals(-Errno.ENODATA, Os.removexattr(f, "user.one"));
        assertEquals(List.of("user.two"), Os.listxattr(f, 64).names());
        assertTrue(fs.calls("setxattr") >= 4 && fs.calls("getxattr") >= 4 && fs.calls("listxattr") >= 3
                && fs.calls("removexattr") == 2);
    }

    @Test
    void opendirReaddirReleasedirAndFsyncdir() throws Exception {
        for (String n : List.of("x", "y", "z")) Files.createFile(p(n));
        Files.createDirectory(p("sub"));
        try (Stream<Path> s = Files.list(mount.root())) {
            assertEquals(Set.of("x", "y", "z", "sub"), s.map(q -> q.getFileName().toString()).collect(Collectors.toSet()));
        }
        int fd = Os.open(Os.bytes(mount.root()), Posix.O_RDONLY | Posix.O_DIRECTORY, 0);
        assertTrue(fd >= 0);
        assertEquals(0, Os.fsync(fd));
        Os.close(fd);
        assertTrue(fs.calls("opendir") >= 2);
        assertTrue(fs.calls("readdir") >= 1);
        assertEquals(1, fs.calls("fsyncdir"));
        awaitCalls("releasedir", 2);
    }

    @Test
    void readdirOfAThousandEntriesPagesThroughOffsets() throws Exception {
        for (int i = 0; i < 1000; i++) Os.close(Os.open(b("file-" + i), Posix.O_CREAT | Posix.O_WRONLY, 0644));
        try (Stream<Path> s = Files.list(mount.root())) {
            assertEquals(1000, s.count());
        }
        assertTrue(fs.calls("readdir") > 1, "a thousand names need several readdir requests");
    }

    @Test
    void accessIsAskedWithoutDefaultPermissions() {
        Os.close(Os.open(b("f"), Posix.O_CREAT | Posix.O_WRONLY, 0644));
        assertEquals(0, Os.access(b("f"), Posix.R_OK));
        assertEquals(-Errno.ENOENT, Os.access(b("nope"), Posix.F_OK));
        assertTrue(fs.calls("access") >= 1);
    }

    @Test
    void posixLocksAndFlocksReachTheFilesystem() {
        int fd = Os.open(b("f"), Posix.O_CREAT | Posix.O_RDWR, 0644);
        assertEquals(0, Os.fcntlLock(fd, Posix.F_SETLK, Posix.F_WRLCK, 0, 10));
        assertEquals(Posix.F_SETLK, fs.lastLockCmd);
        assertEquals(Posix.F_UNLCK, Os.fcntlLock(fd, Posix.F_GETLK, Posix.F_WRLCK, 0, 10));
        assertEquals(Posix.F_GETLK, fs.lastLockCmd);
        assertEquals(0, Os.flock(fd, Posix.LOCK_EX | Posix.LOCK_NB));
        assertEquals(Posix.LOCK_EX | Posix.LOCK_NB, fs.lastFlockOp);
        assertEquals(0, Os.flock(fd, Posix.LOCK_UN));
        Os.close(fd);
        assertTrue(fs.calls("lock") >= 2);
        assertTrue(fs.calls("flock") >= 2);
    }

    @Test
    void utimensWithExplicitNowAndOmit() throws Exception {
        Os.close(Os.open(b("f"), Posix.O_CREAT | Posix.O_WRONLY, 0644));
        assertEquals(0, Os.utimens(b("f"), 1000, 5, 2000, 6));
        Os.StatResult st = Os.lstat(b("f"));
        assertEquals(1000, st.atimeSec());
        assertEquals(5, st.atimeNsec());
        assertEquals(2000, st.mtimeSec());
        assertEquals(0, Os.utimens(b("f"), 0, Timespec.UTIME_OMIT, 0, Timespec.UTIME_NOW));
        st = Os.lstat(b("f"));
        assertEquals(1000, st.atimeSec(), "UTIME_OMIT keeps atime");
        assertTrue(Math.abs(st.mtimeSec() - Instant.now().getEpochSecond()) < 60, "UTIME_NOW sets mtime to now");
        assertEquals(2, fs.calls("utimens"));
    }

    @Test
    void bmapIsNeverSentToANonBlockDeviceMount() throws Exception {
        // The kernel answers FIBMAP itself (block 0) for FUSE mounts without a block device
        // (fs/fuse/file.c fuse_bmap: "if (!inode->i_sb->s_bdev) return 0"): only fuseblk mounts,
        // which need a block device and the blkdev mount option, ever send FUSE_BMAP.
        Files.write(p("f"), new byte[8192]);
        int fd = Os.open(b("f"), Posix.O_RDONLY, 0);
        try (Arena a = Arena.ofConfined()) {
            var block = a.allocateFrom(ValueLayout.JAVA_INT, 1);
            int rc = Os.ioctl(fd, 1 /* FIBMAP = _IO(0x00, 1) */, block);
            assertTrue(rc == 0 || rc == -Errno.EINVAL || rc == -Errno.EPERM, "rc " + rc);
            if (rc == 0) assertEquals(0, block.get(ValueLayout.JAVA_INT, 0));
        } finally {
            Os.close(fd);
        }
        assertEquals(0, fs.calls("bmap"));
    }

    @Test
    void ioctlPassesDataBothWays() throws Exception {
        Os.close(Os.open(b("f"), Posix.O_CREAT | Posix.O_RDWR, 0644));
        assertEquals(new ClientIoctl.Result(0, 42), ClientIoctl.withIntPointer(p("f"), ScratchFileSystem.IOCTL_DOUBLE & 0xFFFFFFFFL, 21));
        assertEquals(-Errno.ENOTTY, ClientIoctl.withIntPointer(p("f"), (ScratchFileSystem.IOCTL_DOUBLE + 1) & 0xFFFFFFFFL, 21).rc());
        assertEquals(2, fs.calls("ioctl"));
    }

    @Test
    void pollReturnsReadinessAndHandlesCanNotify() {
        int fd = Os.open(b("f"), Posix.O_CREAT | Posix.O_RDWR, 0644);
        try {
            int revents = Os.poll(fd, (short) Posix.POLLIN, 5000);
            assertTrue((revents & Posix.POLLIN) != 0, "revents " + revents);
            assertTrue(fs.calls("poll") >= 1);
            PollHandle retained = fs.retainedPoll;
            assertNotNull(retained, "the kernel asked to be notified");
            assertSame(retained, fs.retainedPollAgain, "retaining twice hands out the same owner");
            assertNotSame(fs.pollArgument, retained, "not the per-thread view the next request reuses");
            retained.notifyReady();
        } finally {
            Os.close(fd);
        }
    }

    @Test
    void fallocateGrowsOrKeepsSize() {
        int fd = Os.open(b("f"), Posix.O_CREAT | Posix.O_RDWR, 0644);
        assertEquals(0, Os.fallocate(fd, 0, 0, 8192));
        assertEquals(8192, Os.lstat(b("f")).size());
        assertEquals(0, Os.fallocate(fd, Posix.FALLOC_FL_KEEP_SIZE, 0, 100_000));
        assertEquals(Posix.FALLOC_FL_KEEP_SIZE, fs.lastFallocateMode);
        assertEquals(8192, Os.lstat(b("f")).size());
        Os.close(fd);
        assertEquals(2, fs.calls("fallocate"));
    }

    @Test
    void copyFileRangeCopiesWithinTheMount() throws Exception {
        Files.writeString(p("src"), "0123456789");
        int in = Os.open(b("src"), Posix.O_RDONLY, 0);
        int out = Os.open(b("dst"), Posix.O_CREAT | Posix.O_WRONLY, 0644);
        assertEquals(4, Os.copyFileRange(in, 3, out, 0, 4));
        Os.close(in);
        Os.close(out);
        assertEquals("3456", Files.readString(p("dst")));
        assertEquals(1, fs.calls("copyFileRange"));
    }

    @Test
    void lseekFindsDataAndHoles() throws Exception {
        Files.write(p("f"), new byte[5000]);
        int fd = Os.open(b("f"), Posix.O_RDONLY, 0);
        assertEquals(0, Os.lseek(fd, 0, Posix.SEEK_DATA));
        assertEquals(5000, Os.lseek(fd, 0, Posix.SEEK_HOLE));
        assertEquals(-Errno.ENXIO, Os.lseek(fd, 6000, Posix.SEEK_DATA));
        Os.close(fd);
        assertEquals(3, fs.calls("lseek"));
    }

    @Test
    void unregisteredOperationsAreAbsentForTheKernel() throws Exception {
        // A filesystem without xattr methods: libfuse answers ENOSYS, the kernel reports ENOTSUP.
        FuseFileSystem minimal = new FuseFileSystem() {
            @Override
            public int getattr(String path, Stat stat, FileInfo fi) {
                if (!path.equals("/")) return -Errno.ENOENT;
                stat.setMode(Posix.S_IFDIR | 0755).setNlink(2);
                return 0;
            }
        };
        try (TestMount m = TestMount.mount(minimal)) {
            assertEquals(-Errno.EOPNOTSUPP, Os.getxattr(Os.bytes(m.root()), "user.x", 10).rc());
            assertEquals(-Errno.ENOSYS, Os.mknod(Os.child(m.root(), "n".getBytes()), Posix.S_IFIFO | 0644, 0));
        }
    }

    void awaitCalls(String op, int atLeast) throws InterruptedException {
        // release/releasedir are asynchronous: close(2) returns before the request is served.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (fs.calls(op) < atLeast && System.nanoTime() < deadline) Thread.sleep(10);
        assertTrue(fs.calls(op) >= atLeast, op + " calls: " + fs.calls(op));
    }

    static boolean exists(Path p) {
        return Files.exists(p, LinkOption.NOFOLLOW_LINKS);
    }
}
