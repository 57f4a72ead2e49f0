package dev.fusepanama.throughmount;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fusepanama.Errno;
import dev.fusepanama.ErrnoException;
import dev.fusepanama.MountException;
import dev.fusepanama.MountOptions;
import dev.fusepanama.Posix;
import dev.fusepanama.inode.AttrReply;
import dev.fusepanama.inode.BmapReply;
import dev.fusepanama.inode.CreateReply;
import dev.fusepanama.inode.DataReply;
import dev.fusepanama.inode.DirReply;
import dev.fusepanama.inode.EmptyReply;
import dev.fusepanama.inode.EntryReply;
import dev.fusepanama.inode.Inode;
import dev.fusepanama.inode.IoctlReply;
import dev.fusepanama.inode.LockReply;
import dev.fusepanama.inode.LseekReply;
import dev.fusepanama.inode.Name;
import dev.fusepanama.inode.OpenReply;
import dev.fusepanama.inode.PollReply;
import dev.fusepanama.inode.ReadlinkReply;
import dev.fusepanama.inode.Reply;
import dev.fusepanama.inode.Request;
import dev.fusepanama.inode.StatfsReply;
import dev.fusepanama.inode.Timeouts;
import dev.fusepanama.inode.WriteReply;
import dev.fusepanama.inode.XattrReply;
import dev.fusepanama.libc.Libc;
import dev.fusepanama.testing.FlatInodeFileSystem;
import dev.fusepanama.testkit.MountTest;
import dev.fusepanama.testkit.Os;
import dev.fusepanama.testkit.TestMount;
import dev.fusepanama.testkit.UringSwitch;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The inode API's promise about replies, through a mount: each request is answered exactly
 * once whatever the filesystem does (answers twice, forgets to answer, throws, answers later
 * from another thread, or never, until the mount ends).
 */
@MountTest
@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class InodeRepliesThroughMountTest {

    /** Each name's lookup misbehaves in its own way. */
    static class Misbehaving extends FlatInodeFileSystem {
        final AtomicReference<Throwable> secondAnswer = new AtomicReference<>();
        final AtomicReference<int[]> caller = new AtomicReference<>();
        final ScheduledExecutorService later = Executors.newSingleThreadScheduledExecutor();
        final AtomicReference<Reply> parked = new AtomicReference<>();
        final CountDownLatch parkedNow = new CountDownLatch(1);
        final AtomicReference<java.util.List<String>> kinds = new AtomicReference<>();
        final AtomicReference<java.util.List<String>> attrKinds = new AtomicReference<>();

        @Override
        public void lookup(Request request, long parent, Name name, EntryReply reply) throws java.io.IOException {
            switch (name.toString()) {
                case "forgets" -> { /* returns without answering */ }
                case "twice" -> {
                    reply.error(Errno.EACCES);
                    try {
                        reply.error(Errno.EPERM);
                    } catch (Throwable t) {
                        secondAnswer.set(t);
                    }
                }
                case "throws-errno" -> throw new ErrnoException(Errno.ENOTDIR);
                case "throws-bug" -> throw new IllegalStateException("a bug in the filesystem");
                case "throws-after-answer" -> {
                    reply.error(Errno.ENAMETOOLONG);
                    throw new IllegalStateException("thrown after answering");
                }
                case "later" -> {
                    EntryReply deferred = (EntryReply) reply.defer();
                    byte[] bytes = name.bytes();
                    later.schedule(() -> {
                        deferred.attributes().setMode(Posix.S_IFREG | 0600).setNlink(1).setSize(bytes.length * 1000L);
                        deferred.entry(Inode.of(77), Timeouts.NONE);
                    }, 200, TimeUnit.MILLISECONDS);
                }
                case "never" -> {
                    parked.set(reply.defer());
                    parkedNow.countDown();
                }
                case "kind" -> {
                    kinds.set(kindsOf(reply));
                    reply.error(Errno.ENOENT);
                }
                case "who" -> {
                    caller.set(new int[] {request.uid(), request.gid(), request.pid()});
                    reply.error(Errno.ENOENT);
                }
                default -> super.lookup(request, parent, name, reply);
            }
        }

        @Override
        public void getattr(Request request, long ino, long fh, AttrReply reply) {
            if (ino == ROOT) {
                attrKinds.compareAndSet(null, kindsOf(reply));
            }
            if (ino == 77) {
                reply.attributes().setIno(77).setMode(Posix.S_IFREG | 0600).setNlink(1).setSize(5000);
                reply.send(Timeouts.NONE);
                return;
            }
            super.getattr(request, ino, fh, reply);
        }

        @Override
        public void read(Request request, long ino, long fh, long size, long offset, DataReply reply) {
            super.read(request, ino, fh, size, offset, reply);
        }
    }

    /** The public reply interfaces {@code reply} implements (and so can be cast to). */
    static java.util.List<String> kindsOf(Reply reply) {
        java.util.List<String> kinds = new java.util.ArrayList<>();
        for (Class<?> kind : java.util.List.of(AttrReply.class, BmapReply.class,
                CreateReply.class, DataReply.class,
                DirReply.class, EmptyReply.class, EntryReply.class,
                IoctlReply.class, LockReply.class, LseekReply.class,
                OpenReply.class, PollReply.class, ReadlinkReply.class,
                StatfsReply.class, WriteReply.class, XattrReply.class)) {
            if (kind.isInstance(reply)) kinds.add(kind.getSimpleName());
        }
        return kinds;
    }

    @Test
    void noEntryIsANegativeEntryForALookupAndEnoentForMkdir() throws Exception {
        Misbehaving fs = new Misbehaving() {
            @Override
            public void mkdir(Request request, long parent, Name name, int mode, EntryReply reply) {
                reply.noEntry(5); // no negative entry for mkdir: the kernel would fail it with EIO
            }
        };
        try (TestMount m = TestMount.mount(fs)) {
            assertEquals(-Errno.ENOENT, Os.mkdir(Os.bytes(m.path("d")), 0755));
            assertThrows(IllegalArgumentException.class, () -> Timeouts.NONE.withEntries(-1));
        } finally {
            fs.later.shutdownNow();
        }
    }

    @Test
    void aReplyIsOnlyItsOwnKind() throws Exception {
        Misbehaving fs = new Misbehaving();
        try (TestMount m = TestMount.mount(fs)) {
            assertEquals(Errno.ENOENT, lstatErrno(m.path("kind")));
            Os.lstat(Os.bytes(m.path("")));
            assertEquals(java.util.List.of("EntryReply"), fs.kinds.get(), "a lookup's reply answers as an entry only");
            assertEquals(java.util.List.of("AttrReply"), fs.attrKinds.get(), "a getattr's reply answers as attributes only");
        } finally {
            fs.later.shutdownNow();
        }
    }

    /** Whether {@code logged} gets an event that {@code matches} within 5 s. */
    private static boolean awaitLogged(ch.qos.logback.core.read.ListAppender<ch.qos.logback.classic.spi.ILoggingEvent> logged,
            java.util.function.Predicate<ch.qos.logback.classic.spi.ILoggingEvent> matches) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        do {
            synchronized (logged) { // the appender adds under its own monitor
                if (logged.list.stream().anyMatch(matches)) return true;
            }
            Thread.sleep(5);
        } while (System.nanoTime() < deadline);
        return false;
    }

    private static int lstatErrno(Path p) {
        try {
            Os.lstat(Os.bytes(p));
            return 0;
        } catch (Os.OsException e) {
            return e.errno;
        }
    }

    @Test
    void everyRequestIsAnsweredOnceWhateverTheMethodDoes() throws Exception {
        Misbehaving fs = new Misbehaving();
        fs.put("fine", "ok");
        // The inode API's failures are logged under its own interface's logger, a reply never sent as such.
        ch.qos.logback.classic.Logger inodeLog = (ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger(
                "dev.fusepanama.inode.InodeFileSystem");
        ch.qos.logback.core.read.ListAppender<ch.qos.logback.classic.spi.ILoggingEvent> logged = new ch.qos.logback.core.read.ListAppender<>();
        logged.start();
        inodeLog.addAppender(logged);
        try (TestMount m = TestMount.mount(fs)) {
            assertEquals(Errno.EIO, lstatErrno(m.path("forgets")), "returned without answering: EIO");
            // The answer goes first, the log line after it.
            assertTrue(awaitLogged(logged, e -> e.getFormattedMessage().startsWith("lookup request on ")
                    && e.getFormattedMessage().endsWith(" returned without answering its reply or deferring it; answered EIO")
                    && e.getThrowableProxy() == null), "logged as unanswered, without a stack trace: " + logged.list);
            assertEquals(Errno.EACCES, lstatErrno(m.path("twice")), "the first answer counts");
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (fs.secondAnswer.get() == null && System.nanoTime() < deadline) Thread.sleep(5); // the caller may see the first answer first
            assertTrue(fs.secondAnswer.get() instanceof IllegalStateException, "the second one throws: " + fs.secondAnswer.get());
            assertEquals(Errno.ENOTDIR, lstatErrno(m.path("throws-errno")));
            assertEquals(Errno.EIO, lstatErrno(m.path("throws-bug")));
            assertEquals(Errno.ENAMETOOLONG, lstatErrno(m.path("throws-after-answer")), "the answer stands");
            assertEquals("ok", Files.readString(m.path("fine")), "and the mount still serves");
            assertTrue(awaitLogged(logged, e -> e.getFormattedMessage().contains(" threw; answering EIO")),
                    "the method that threw a bug, under the same logger: " + logged.list);
        } finally {
            inodeLog.detachAppender(logged);
            fs.later.shutdownNow();
        }
    }

    @Test
    void aDeferredReplyIsSentFromAnotherThread() throws Exception {
        Misbehaving fs = new Misbehaving();
        try (TestMount m = TestMount.mount(fs)) {
            long start = System.nanoTime();
            assertEquals(5000, Files.size(m.path("later")));
            assertTrue(System.nanoTime() - start >= TimeUnit.MILLISECONDS.toNanos(150), "answered when the other thread did");
        } finally {
            fs.later.shutdownNow();
        }
    }

    /**
     * Over io_uring, libfuse up to 3.18 corrupts a queue's ring when a reply comes from a thread
     * other than the queue's: there defer() is refused (the request fails with EIO, nothing is
     * risked, the mount keeps serving); where the rings are not in use, or libfuse is fixed,
     * the same filesystem defers as over /dev/fuse.
     */
    @Test
    void overIoUringADeferredReplyIsRefusedWhereLibfuseWouldCorruptItsRing() throws Exception {
        Misbehaving fs = new Misbehaving();
        fs.put("plain", "served");
        try (UringSwitch on = UringSwitch.set(true);
                TestMount m = TestMount.mount(fs, MountOptions.builder().ioUring(true).build())) {
            boolean rings = UringSwitch.ringsOf(m.handle().describe());
            if (rings && !TestMount.libfuseAtLeast(3, 19)) {
                assertEquals(Errno.EIO, lstatErrno(m.path("later")), "defer() threw: the request fails, the ring is not risked");
            } else {
                assertEquals(5000, Files.size(m.path("later")));
            }
            for (int i = 0; i < 20; i++) {
                assertEquals("served", Files.readString(m.path("plain")));
            }
        } finally {
            fs.later.shutdownNow();
        }
    }

    @Test
    void theRequestShowsItsCaller() throws Exception {
        Misbehaving fs = new Misbehaving();
        try (TestMount m = TestMount.mount(fs)) {
            assertEquals(Errno.ENOENT, lstatErrno(m.path("who")));
            assertEquals(Libc.geteuid(), fs.caller.get()[0]);
            assertEquals(Libc.getegid(), fs.caller.get()[1]);
            // The kernel sends the calling thread's id; its thread group is this process.
            String status = Files.readString(Path.of("/proc", Integer.toString(fs.caller.get()[2]), "status"));
            assertTrue(status.contains("\nTgid:\t" + ProcessHandle.current().pid() + "\n"), "a thread of this process asked");
        } finally {
            fs.later.shutdownNow();
        }
    }

    /**
     * A reply deferred and never sent: the mount cannot be unmounted while the caller waits for
     * it; when the connection ends the session answers it before freeing itself, and the late
     * answer is dropped (it must not reach freed memory).
     */
    @Test
    void aReplyStillDeferredWhenTheMountEndsIsAnsweredByTheSession() throws Exception {
        TestMount.ensureFusectl();
        Misbehaving fs = new Misbehaving();
        TestMount m = TestMount.mount(fs);
        CompletableFuture<Integer> waiting = CompletableFuture.supplyAsync(() -> lstatErrno(m.path("never")));
        try {
            assertTrue(fs.parkedNow.await(10, TimeUnit.SECONDS));
            assertFalse(waiting.isDone(), "the caller waits for the answer");
            assertThrows(MountException.class, () -> m.handle().close(), "busy while a caller waits");
        } finally {
            m.close(); // aborts the connection: the waiting call fails, the loop ends, the session is freed
        }
        int errno = waiting.get(10, TimeUnit.SECONDS);
        assertTrue(errno == Errno.ECONNABORTED || errno == Errno.ENOTCONN, "the caller got an error: " + Errno.name(errno));
        assertTrue(fs.parked.get().isAnswered(), "answered by the session");
        ((EntryReply) fs.parked.get()).entry(Inode.of(5), Timeouts.NONE); // dropped: no crash, no exception
        fs.later.shutdownNow();
    }

    /** The kernel knows a file by the entry's inode number; programs see the st_ino the filesystem gave. */
    @Test
    void programsSeeTheStInoTheFilesystemGaveWhileTheKernelKeepsTheEntrysNumber() throws Exception {
        java.util.Set<Long> askedFor = java.util.concurrent.ConcurrentHashMap.newKeySet();
        FlatInodeFileSystem fs = new FlatInodeFileSystem() {
            @Override
            public void lookup(Request request, long parent, Name name, EntryReply reply) {
                long ino = ino(name.toString());
                reply.attributes().setIno(ino + 1_000_000).setMode(Posix.S_IFREG | 0644).setNlink(1);
                reply.entry(Inode.of(ino), Timeouts.NONE);
            }

            @Override
            public void getattr(Request request, long ino, long fh, AttrReply reply) {
                askedFor.add(ino);
                if (ino == ROOT) {
                    reply.attributes().setIno(ROOT).setMode(Posix.S_IFDIR | 0755).setNlink(2);
                } else {
                    reply.attributes().setIno(ino + 1_000_000).setMode(Posix.S_IFREG | 0644).setNlink(1);
                }
                reply.send(Timeouts.NONE);
            }
        };
        long ino = fs.put("f", "x");
        try (TestMount m = TestMount.mount(fs)) {
            assertEquals(ino + 1_000_000, Os.lstat(Os.bytes(m.path("f"))).ino(), "from the entry");
            assertEquals(ino + 1_000_000, Os.lstat(Os.bytes(m.path("f"))).ino(), "from getattr");
            assertTrue(askedFor.contains(ino), "the kernel asks by the entry's number: " + askedFor);
            assertFalse(askedFor.contains(ino + 1_000_000), askedFor.toString());
        }
    }
}
