package dev.fusepanama.throughmount;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.fusepanama.Errno;
import dev.fusepanama.ForwardingFileSystem;
import dev.fusepanama.Fuse;
import dev.fusepanama.FuseFileSystem;
import dev.fusepanama.KernelSettings;
import dev.fusepanama.MountException;
import dev.fusepanama.Posix;
import dev.fusepanama.Stat;
import dev.fusepanama.inode.AttrReply;
import dev.fusepanama.inode.DataReply;
import dev.fusepanama.inode.DirReply;
import dev.fusepanama.inode.EntryReply;
import dev.fusepanama.inode.Inode;
import dev.fusepanama.inode.Timeouts;
import dev.fusepanama.inode.InodeFileSystem;
import dev.fusepanama.inode.Name;
import dev.fusepanama.inode.OpenReply;
import dev.fusepanama.inode.Request;
import dev.fusepanama.inode.WriteReply;
import dev.fusepanama.inode.XattrReply;
import dev.fusepanama.testing.ScratchFileSystem;
import dev.fusepanama.testkit.MountTest;
import dev.fusepanama.testkit.RequestTrace;
import dev.fusepanama.testkit.TestMount;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Each {@link KernelSettings} setting, seen in the requests the kernel sends (its
 * {@code fuse:fuse_request_send} tracepoint): the same walk of the same filesystem, mounted
 * without the setting and with it; and each API refusing the settings only the other can take.
 */
@MountTest
@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class KernelSettingsThroughMountTest {

    /**
     * A root directory of files, each kept for an hour by the kernel, that the test can change
     * behind the kernel's back. No opendir of its own: readdir resumes from the offset alone.
     */
    static class Files1 implements InodeFileSystem {
        static final double HOUR = 3600;
        static final Timeouts CACHE = Timeouts.NONE.withAttributes(HOUR).withEntries(HOUR);

        static final class File {
            final long ino;
            volatile byte[] data;
            volatile int mode = Posix.S_IFREG | 0644;
            volatile long mtime = 1_000_000_000L;

            File(long ino, byte[] data) {
                this.ino = ino;
                this.data = data;
            }
        }

        final KernelSettings caching;
        final ConcurrentSkipListMap<String, File> files = new ConcurrentSkipListMap<>();
        final Map<Long, File> byIno = new ConcurrentHashMap<>();
        final AtomicLong inodes = new AtomicLong(ROOT + 1);
        final List<Long> readdirHandles = new java.util.concurrent.CopyOnWriteArrayList<>();
        final List<Long> readOffsets = new java.util.concurrent.CopyOnWriteArrayList<>();
        /** Each WRITE's {@link Request#fromPageCache}. */
        final List<Boolean> writesFromPageCache = new java.util.concurrent.CopyOnWriteArrayList<>();

        Files1(KernelSettings caching) {
            this.caching = caching;
        }

        File put(String name, String content) {
            File f = new File(inodes.getAndIncrement(), content.getBytes(StandardCharsets.UTF_8));
            files.put(name, f);
            byIno.put(f.ino, f);
            return f;
        }

        @Override
        public KernelSettings kernelSettings() {
            return caching;
        }

        private static void fill(File f, Stat st) {
            st.setIno(f.ino).setMode(f.mode).setNlink(1).setSize(f.data.length)
                    .setMtime(f.mtime / 1_000_000_000L, f.mtime % 1_000_000_000L);
        }

        @Override
        public void lookup(Request request, long parent, Name name, EntryReply reply) {
            File f = parent == ROOT ? files.get(name.toString()) : null;
            if (f == null) {
                reply.error(Errno.ENOENT);
                return;
            }
            fill(f, reply.attributes());
            reply.entry(Inode.of(f.ino), CACHE);
        }

        @Override
        public void getattr(Request request, long ino, long fh, AttrReply reply) {
            if (ino == ROOT) {
                reply.attributes().setIno(ROOT).setMode(Posix.S_IFDIR | 0777).setNlink(2);
            } else {
                File f = byIno.get(ino);
                if (f == null) {
                    reply.error(Errno.ENOENT);
                    return;
                }
                fill(f, reply.attributes());
            }
            reply.send(CACHE);
        }

        @Override
        public void setattr(Request request, long ino, Stat in, int toSet, long fh, AttrReply reply) {
            File f = byIno.get(ino);
            if (f == null) {
                reply.error(Errno.ENOENT);
                return;
            }
            if ((toSet & SET_MODE) != 0) f.mode = Posix.S_IFREG | (in.mode() & 07777);
            if ((toSet & SET_SIZE) != 0) f.data = java.util.Arrays.copyOf(f.data, (int) in.size());
            fill(f, reply.attributes());
            reply.send(CACHE);
        }

        @Override
        public void open(Request request, long ino, int flags, OpenReply reply) {
            reply.open(ino, OpenReply.KEEP_CACHE);
        }

        @Override
        public void read(Request request, long ino, long fh, long size, long offset, DataReply reply) {
            readOffsets.add(offset);
            byte[] d = byIno.get(ino).data;
            int from = (int) Math.min(offset, d.length);
            reply.data(d, from, (int) Math.min(size, d.length - from));
        }

        @Override
        public void write(Request request, long ino, long fh, ByteBuffer data, long offset, WriteReply reply) {
            writesFromPageCache.add(request.fromPageCache());
            File f = byIno.get(ino);
            int n = data.remaining();
            synchronized (f) {
                byte[] d = java.util.Arrays.copyOf(f.data, (int) Math.max(f.data.length, offset + n));
                data.get(d, (int) offset, n);
                f.data = d;
            }
            reply.written(n);
        }

        @Override
        public void getxattr(Request request, long ino, Name name, long size, XattrReply reply) {
            reply.error(Errno.ENODATA);
        }

        @Override
        public void readdir(Request request, long ino, long fh, long size, long offset, DirReply reply) {
            readdirHandles.add(fh);
            long i = 0;
            for (Map.Entry<String, File> e : files.entrySet()) {
                if (++i <= offset) continue;
                if (reply.add(e.getKey().getBytes(StandardCharsets.UTF_8), e.getValue().ino, Posix.S_IFREG, i)) break;
            }
            reply.send();
        }
    }

    /** The same, opening directories itself (a handle of 7). */
    static class WithOpendir extends Files1 {
        WithOpendir(KernelSettings caching) {
            super(caching);
        }

        @Override
        public void opendir(Request request, long ino, int flags, OpenReply reply) {
            reply.open(7, 0);
        }
    }

    @BeforeAll
    static void traceable() {
        assumeTrue(RequestTrace.available(), "this kernel has no fuse:fuse_request_send tracepoint");
    }

    private static void listThrice(Path dir) throws Exception {
        for (int i = 0; i < 3; i++) {
            try (Stream<Path> s = Files.list(dir)) {
                assertEquals(3, s.count());
            }
        }
    }

    private static Files1 threeFiles(Files1 fs) {
        fs.put("a", "1");
        fs.put("b", "2");
        fs.put("c", "3");
        return fs;
    }

    @Test
    void noOpendirOpensAndClosesDirectoriesWithoutARequestAndKeepsTheListing() throws Exception {
        Files1 plain = threeFiles(new WithOpendir(KernelSettings.DEFAULTS));
        try (TestMount m = TestMount.mount(plain); RequestTrace trace = RequestTrace.start(m.root())) {
            listThrice(m.root());
            assertEquals(3, trace.count("OPENDIR"), trace.counts().toString());
            assertEquals(3, trace.count("RELEASEDIR"), trace.counts().toString());
            assertEquals(6, listings(trace), "each listing reads the directory and its end: " + trace.counts());
        }
        Files1 fs = threeFiles(new Files1(KernelSettings.builder().noOpendir(true).build()));
        try (TestMount m = TestMount.mount(fs); RequestTrace trace = RequestTrace.start(m.root())) {
            listThrice(m.root());
            assertEquals(1, trace.count("OPENDIR"), "only the first, answered ENOSYS: " + trace.counts());
            assertEquals(0, trace.count("RELEASEDIR"), trace.counts().toString());
            assertEquals(2, listings(trace), "the first listing only; the others come from the cache: " + trace.counts());
            assertEquals(List.of(0L, 0L), fs.readdirHandles, "readdir without a handle");
            assertTrue(m.handle().describe().contains("no opendir"), m.handle().describe());

            fs.put("d", "4"); // behind the kernel's back: the cached listing stays until invalidated
            try (Stream<Path> s = Files.list(m.root())) {
                assertEquals(3, s.count());
            }
            m.inodeHandle().invalidateInode(InodeFileSystem.ROOT, 0, 0);
            try (Stream<Path> s = Files.list(m.root())) {
                assertEquals(4, s.count(), "the listing is read again once invalidated");
            }
        }
    }

    /** Listing requests of either kind: one readdir serves READDIR and READDIRPLUS, and the kernel picks per batch. */
    private static long listings(RequestTrace trace) throws IOException {
        return trace.count("READDIR") + trace.count("READDIRPLUS");
    }

    @Test
    void keepListingsKeepsTheListingAcrossOpensOfAFilesystemThatOpensDirectories() throws Exception {
        Files1 fs = threeFiles(new WithOpendir(KernelSettings.builder().keepListings(true).build()));
        try (TestMount m = TestMount.mount(fs); RequestTrace trace = RequestTrace.start(m.root())) {
            listThrice(m.root());
            assertEquals(3, trace.count("OPENDIR"), trace.counts().toString());
            assertEquals(2, listings(trace), "the first listing only: " + trace.counts());
            assertTrue(fs.readdirHandles.stream().allMatch(h -> h == 7), "the filesystem's own handle: " + fs.readdirHandles);
        }
    }

    @Test
    void aFilesystemThatOpensDirectoriesItselfCannotAskForNoOpendir() throws Exception {
        Path dir = Files.createTempDirectory("fp-noopendir-");
        try {
            var e = assertThrows(MountException.class,
                    () -> Fuse.mount(new WithOpendir(KernelSettings.builder().noOpendir(true).build()), dir).close());
            assertTrue(e.getMessage().contains("implements opendir"), e.getMessage());
        } finally {
            Files.deleteIfExists(dir);
        }
    }

    @Test
    void negativeEntriesRememberAnAbsentNameUntilItIsCreated() throws Exception {
        for (double timeout : new double[] {0, 3600}) {
            Files1 fs = threeFiles(new Files1(KernelSettings.builder().negativeEntries(timeout).build()));
            try (TestMount m = TestMount.mount(fs); RequestTrace trace = RequestTrace.start(m.root())) {
                for (int i = 0; i < 3; i++) {
                    assertThrows(NoSuchFileException.class, () -> Files.readAttributes(m.path("absent"), "size"));
                }
                assertEquals(timeout > 0 ? 1 : 3, trace.count("LOOKUP"), "negative timeout " + timeout + ": " + trace.counts());
                if (timeout > 0) {
                    fs.put("absent", "now here"); // behind the kernel: its negative entry hides it until told
                    assertFalse(Files.exists(m.path("absent")));
                    m.inodeHandle().invalidateEntry(InodeFileSystem.ROOT, "absent".getBytes(StandardCharsets.UTF_8));
                    assertEquals("now here", Files.readString(m.path("absent")));
                }
            }
        }
    }

    @Test
    void explicitDataInvalidationKeepsThePagesOfAFileWhoseSizeChangedBehindTheKernel() throws Exception {
        for (boolean explicit : new boolean[] {false, true}) {
            Files1 fs = new Files1(KernelSettings.builder().explicitDataInvalidation(explicit).build());
            Files1.File f = fs.put("f", "x".repeat(8192));
            try (TestMount m = TestMount.mount(fs)) {
                assertEquals(8192, Files.readAllBytes(m.path("f")).length);
                fs.readOffsets.clear();
                f.data = (new String(f.data, StandardCharsets.UTF_8) + "y").getBytes(StandardCharsets.UTF_8); // appended behind the kernel
                m.inodeHandle().invalidateInode(f.ino, -1, 0); // attributes only: the new size is learnt at the next getattr
                assertEquals(8193, Files.size(m.path("f")));
                byte[] read = Files.readAllBytes(m.path("f"));
                assertEquals(8193, read.length);
                assertEquals('y', read[8192]);
                // Without the lever a new size drops every cached page (fuse-panama leaves
                // auto_inval_data off, so it is the size alone); with it only what lies past the old end is read.
                assertEquals(!explicit, fs.readOffsets.contains(0L), "explicit " + explicit + ": reads at " + fs.readOffsets);
                assertEquals(explicit, m.handle().describe().contains("explicit data invalidation"), m.handle().describe());
            }
        }
    }

    @Test
    void handleKillprivV2StopsTheCapabilityLookupBeforeEachWrite() throws Exception {
        for (boolean v2 : new boolean[] {false, true}) {
            Files1 fs = new Files1(KernelSettings.builder().handleKillprivV2(v2).build());
            fs.put("f", "");
            try (TestMount m = TestMount.mount(fs)) {
                boolean granted = m.handle().describe().contains("handle_killpriv_v2")
                        && !m.handle().describe().contains("without handle_killpriv_v2");
                assertEquals(v2 && libfuseAtLeast3171(), granted, m.handle().describe());
                try (RequestTrace trace = RequestTrace.start(m.root());
                        var ch = java.nio.channels.FileChannel.open(m.path("f"), StandardOpenOption.WRITE)) {
                    for (int i = 0; i < 5; i++) ch.write(ByteBuffer.wrap(new byte[100]), i * 100L);
                    long getxattrs = trace.count("GETXATTR");
                    if (granted) {
                        assertTrue(getxattrs <= 1, "one check, then the file is known to need none: " + trace.counts());
                    } else {
                        assertEquals(5, getxattrs, "one security.capability lookup per write: " + trace.counts());
                    }
                }
            }
        }
    }

    @Test
    void aFilesystemWithoutFlushGetsOneFlushOnly() throws Exception {
        Files1 fs = threeFiles(new Files1(KernelSettings.DEFAULTS));
        try (TestMount m = TestMount.mount(fs); RequestTrace trace = RequestTrace.start(m.root())) {
            for (String n : new String[] {"a", "b", "c", "a"}) {
                try (var ch = java.nio.channels.FileChannel.open(m.path(n), StandardOpenOption.WRITE)) {
                    ch.write(ByteBuffer.wrap(new byte[] {'x'}));
                }
            }
            assertEquals(1, trace.count("FLUSH"), "FLUSH is answered ENOSYS once, then never sent: " + trace.counts());
        }
    }

    @Test
    void theWritebackCacheGathersSmallWritesIntoPagesTheKernelFlushes() throws Exception {
        byte[] expected = new byte[100 * 1000];
        for (int i = 0; i < expected.length; i++) expected[i] = (byte) (i % 251);
        for (boolean writeback : new boolean[] {false, true}) {
            Files1 fs = new Files1(KernelSettings.builder().writebackCache(writeback).build());
            fs.put("f", "");
            try (TestMount m = TestMount.mount(fs)) {
                assertEquals(writeback, m.handle().describe().contains("writeback cache"), m.handle().describe());
                try (RequestTrace trace = RequestTrace.start(m.root())) {
                    try (var ch = java.nio.channels.FileChannel.open(m.path("f"), StandardOpenOption.WRITE)) {
                        for (int i = 0; i < 100; i++) ch.write(ByteBuffer.wrap(expected, i * 1000, 1000), i * 1000L);
                        ch.force(false);
                    }
                    long writes = trace.count("WRITE");
                    if (writeback) {
                        // 25 pages: one WRITE at the fsync, a few more if a sync(2) elsewhere flushed some first
                        assertTrue(writes >= 1 && writes <= 10, "100,000 bytes in 25 pages, flushed whole: " + trace.counts());
                    } else {
                        assertTrue(writes >= 100, "a request per write(2), two where it crosses a page: " + trace.counts());
                    }
                }
                assertEquals(java.util.Collections.nCopies(fs.writesFromPageCache.size(), writeback), fs.writesFromPageCache,
                        "fromPageCache tells the kernel's flushes");
                assertTrue(java.util.Arrays.equals(expected, fs.byIno.get(fs.files.get("f").ino).data), "every byte arrived");
            }
        }
    }

    /** libfuse 3.17.1 or later, the first to negotiate handle_killpriv_v2. */
    private static boolean libfuseAtLeast3171() throws java.io.IOException {
        int[] v = java.util.Arrays.stream(Fuse.libfuseVersion().trim().split("[.-]")).limit(3).mapToInt(Integer::parseInt).toArray();
        return java.util.Arrays.compare(v, new int[] {3, 17, 1}) >= 0;
    }

    @Test
    void aBadNegativeTimeoutIsRefusedWhenBuilt() {
        assertThrows(IllegalArgumentException.class, () -> KernelSettings.builder().negativeEntries(-1));
        assertThrows(IllegalArgumentException.class, () -> KernelSettings.builder().negativeEntries(Double.NaN));
    }

    @Test
    void eachApiRefusesTheSettingsOnlyTheOtherTakesNamingWhatItUsesInstead() throws Exception {
        Path dir = Files.createTempDirectory("fp-settings-");
        try {
            Files1 inode = threeFiles(new Files1(KernelSettings.builder().attrTimeout(0).keepCache(true).build()));
            var i = assertThrows(MountException.class, () -> Fuse.mount(inode, dir).close());
            assertEquals(MountException.Reason.INVALID_OPTIONS, i.reason());
            assertTrue(i.getMessage().contains("asks for attrTimeout, keepCache, which this API cannot take: an inode filesystem"
                    + " gives its timeouts with each reply"), i.getMessage());
            FuseFileSystem path = ForwardingFileSystem.withKernelSettings(new ScratchFileSystem(),
                    KernelSettings.builder().keepListings(true).build());
            var p = assertThrows(MountException.class, () -> Fuse.mount(path, dir).close());
            assertEquals(MountException.Reason.INVALID_OPTIONS, p.reason());
            assertTrue(p.getMessage().contains("asks for keepListings, which this API cannot take: libfuse's path layer"), p.getMessage());
            FuseFileSystem none = new ScratchFileSystem() {
                @Override
                public KernelSettings kernelSettings() {
                    return null;
                }
            };
            var n = assertThrows(MountException.class, () -> Fuse.mount(none, dir).close());
            assertTrue(n.getMessage().contains("kernelSettings() returned null"), n.getMessage());
        } finally {
            Files.deleteIfExists(dir);
        }
    }

    @Test
    void thePathApiRemembersAbsentNamesAndAsksForCapabilitiesFromTheSameSettings() throws Exception {
        for (double timeout : new double[] {0, 3600}) {
            KernelSettings settings = KernelSettings.builder().negativeEntries(timeout).build();
            try (TestMount m = TestMount.mount(new ScratchFileSystem(), settings); RequestTrace trace = RequestTrace.start(m.root())) {
                for (int i = 0; i < 3; i++) {
                    assertThrows(NoSuchFileException.class, () -> Files.readAttributes(m.path("absent"), "size"));
                }
                assertEquals(timeout > 0 ? 1 : 3, trace.count("LOOKUP"), "negative timeout " + timeout + ": " + trace.counts());
                Files.writeString(m.path("absent"), "made through the mount"); // replaces the negative entry at once
                assertEquals("made through the mount", Files.readString(m.path("absent")));
            }
        }
        KernelSettings capabilities = KernelSettings.builder().explicitDataInvalidation(true).handleKillprivV2(true).build();
        try (TestMount m = TestMount.mount(new ScratchFileSystem(), capabilities)) {
            String d = m.handle().describe();
            assertTrue(d.contains("kernel settings: explicit data invalidation"), d);
            assertTrue(TestMount.libfuseAtLeast(3, 17) ? d.contains(", handle_killpriv_v2") : d.contains("without handle_killpriv_v2 (libfuse"), d);
        }
    }
}
