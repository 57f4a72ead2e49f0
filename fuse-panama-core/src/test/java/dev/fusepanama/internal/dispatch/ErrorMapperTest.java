package dev.fusepanama.internal.dispatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.fusepanama.Errno;
import dev.fusepanama.ErrnoException;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.util.ArrayList;
import java.util.List;
import java.util.ResourceBundle;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

class ErrorMapperTest {
    final ListAppender<ILoggingEvent> log = new ListAppender<>();
    final Logger logger = (Logger) LoggerFactory.getLogger("dev.fusepanama.FuseFileSystem");

    @BeforeEach
    void capture() {
        log.start();
        logger.addAppender(log);
    }

    @AfterEach
    void release() {
        logger.detachAppender(log);
    }

    @Test
    void javaNioExceptionsMapToTheirNaturalErrno() {
        assertEquals(Errno.ENOENT, ErrorMapper.errnoOf(new NoSuchFileException("/x")));
        assertEquals(Errno.EEXIST, ErrorMapper.errnoOf(new FileAlreadyExistsException("/x")));
        assertEquals(Errno.ENOTEMPTY, ErrorMapper.errnoOf(new DirectoryNotEmptyException("/x")));
        assertEquals(Errno.EACCES, ErrorMapper.errnoOf(new AccessDeniedException("/x")));
        assertEquals(Errno.ENOTDIR, ErrorMapper.errnoOf(new NotDirectoryException("/x")));
        assertEquals(Errno.ENOSPC, ErrorMapper.errnoOf(new ErrnoException(Errno.ENOSPC)));
        assertEquals(Errno.EIO, ErrorMapper.errnoOf(new IOException("disk on fire")));
        assertEquals(Errno.EIO, ErrorMapper.errnoOf(new NullPointerException()));
        assertEquals(Errno.EIO, ErrorMapper.errnoOf(new StackOverflowError()));
    }

    @Test
    void aMethodFailingInALoopIsLoggedOncePerQuietPeriodWithACount() {
        AtomicLong clock = new AtomicLong();
        ErrorMapper m = new ErrorMapper(ErrorMapper.PATH_LOGGER, "/mnt", clock::get);
        for (int i = 0; i < 1000; i++) {
            assertEquals(-Errno.EIO, m.fail("read", () -> "/f", new IllegalStateException("bug")));
            clock.addAndGet(1_000_000); // 1 ms apart: 1 s in all
        }
        assertEquals(1, log.list.size(), "one entry for a burst");
        assertTrue(log.list.get(0).getFormattedMessage().contains("read /f on /mnt threw; answering EIO"));
        clock.addAndGet(ErrorMapper.QUIET_NANOS);
        m.fail("read", () -> "/f", new IllegalStateException("bug"));
        assertEquals(2, log.list.size());
        assertTrue(log.list.get(1).getFormattedMessage().contains("999 more IllegalStateException from read not logged"),
                log.list.get(1).getFormattedMessage());
        m.fail("write", () -> "/f", new IllegalStateException("other"));
        assertEquals(3, log.list.size(), "each operation has its own window");
    }

    @Test
    void aDifferentFailureInTheSameOperationIsNeverHeldBackByAnEarlierOne() {
        AtomicLong clock = new AtomicLong();
        ErrorMapper m = new ErrorMapper(ErrorMapper.PATH_LOGGER, "/mnt", clock::get);
        m.fail("read", () -> "/f", new StackOverflowError());
        clock.addAndGet(1_000_000);
        m.fail("read", () -> "/f", new StackOverflowError());
        clock.addAndGet(1_000_000);
        m.fail("read", () -> "/f", new OutOfMemoryError("Java heap space"));
        assertEquals(2, log.list.size(), "the repeated StackOverflowError is held back, the OutOfMemoryError is not");
        assertTrue(log.list.get(1).getThrowableProxy().getClassName().equals(OutOfMemoryError.class.getName()));
    }

    @Test
    void withoutAnSlf4jProviderAFailureStillLeavesATraceThroughTheJdkLogger() {
        List<String> messages = new ArrayList<>();
        List<Throwable> thrown = new ArrayList<>();
        System.Logger jdk = new System.Logger() {
            @Override public String getName() { return "dev.fusepanama.FuseFileSystem"; }
            @Override public boolean isLoggable(Level level) { return true; }
            @Override public void log(Level level, ResourceBundle bundle, String msg, Throwable t) {
                messages.add(level + " " + msg);
                thrown.add(t);
            }
            @Override public void log(Level level, ResourceBundle bundle, String format, Object... params) {
                messages.add(level + " " + format);
            }
        };
        ErrorMapper m = new ErrorMapper(ErrorMapper.PATH_LOGGER, "/mnt", System::nanoTime, jdk);
        assertEquals(-Errno.EIO, m.fail("read", () -> "/f", new IllegalStateException("bug")));
        assertEquals(List.of("WARNING read /f on /mnt threw; answering EIO"), messages);
        assertEquals("bug", thrown.get(0).getMessage());
        assertTrue(log.list.isEmpty(), "not through SLF4J, which would discard it");
    }

    @Test
    void aReplyNeverSentIsLoggedAsSuchUnderTheLoggerGivenAndHeldBackLikeAFailure() {
        Logger inode = (Logger) LoggerFactory.getLogger(ErrorMapper.INODE_LOGGER);
        ListAppender<ILoggingEvent> inodeLog = new ListAppender<>();
        inodeLog.start();
        inode.addAppender(inodeLog);
        try {
            AtomicLong clock = new AtomicLong();
            ErrorMapper m = new ErrorMapper(ErrorMapper.INODE_LOGGER, "/mnt", clock::get);
            m.unanswered("lookup", () -> "of inode 1");
            clock.addAndGet(1_000_000);
            m.unanswered("lookup", () -> "of inode 1");
            m.fail("lookup", () -> "of inode 1", new IllegalStateException("bug"));
            assertEquals(2, inodeLog.list.size(), "the repeat held back; a failure of another kind is not: " + inodeLog.list);
            assertEquals("lookup of inode 1 on /mnt returned without answering its reply or deferring it; answered EIO",
                    inodeLog.list.get(0).getFormattedMessage());
            assertEquals(null, inodeLog.list.get(0).getThrowableProxy(), "no stack trace: nothing threw");
            assertTrue(inodeLog.list.get(1).getFormattedMessage().contains("threw; answering EIO"));
            assertTrue(log.list.isEmpty(), "nothing under the path API's logger");
            clock.addAndGet(ErrorMapper.QUIET_NANOS);
            m.unanswered("lookup", () -> "of inode 1");
            assertTrue(inodeLog.list.get(2).getFormattedMessage().endsWith("(1 more unanswered request from lookup not logged)"),
                    inodeLog.list.get(2).getFormattedMessage());
        } finally {
            inode.detachAppender(inodeLog);
        }
    }

    @Test
    void chosenAnswersAreNotWarnings() {
        ErrorMapper m = new ErrorMapper(ErrorMapper.PATH_LOGGER, "/mnt");
        assertEquals(-Errno.ENOENT, m.fail("getattr", () -> "/x", new NoSuchFileException("/x")));
        assertEquals(-Errno.EPERM, m.fail("unlink", () -> "/x", new ErrnoException(Errno.EPERM)));
        assertTrue(log.list.stream().noneMatch(e -> e.getLevel().isGreaterOrEqual(ch.qos.logback.classic.Level.WARN)));
    }
}
