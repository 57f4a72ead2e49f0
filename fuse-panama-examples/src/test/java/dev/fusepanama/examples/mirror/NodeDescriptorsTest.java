package dev.fusepanama.examples.mirror;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.fusepanama.Errno;
import dev.fusepanama.Posix;
import dev.fusepanama.libc.Libc;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** The bounded set of node descriptors, over descriptors of /dev/null: what it closes, and what it never closes. */
class NodeDescriptorsTest {
    private static final MemorySegment DEV_NULL = Arena.global().allocateFrom("/dev/null");
    private final List<SourceNode> nodes = new ArrayList<>();
    private NodeDescriptors made;

    private NodeDescriptors descriptors(int capacity) {
        made = new NodeDescriptors(capacity);
        return made;
    }

    private SourceNode node() {
        SourceNode n = new SourceNode(nodes.size() + 2, 1, nodes.size() + 2, new byte[] {8, 0, 0, 0, 1, 0, 0, 0}, true, Posix.S_IFREG | 0644, null);
        nodes.add(n);
        return n;
    }

    private static int open() {
        int fd = Libc.openat(Libc.AT_FDCWD, DEV_NULL, Posix.O_RDONLY | Posix.O_CLOEXEC, 0);
        assertTrue(fd >= 0, "open /dev/null: " + fd);
        return fd;
    }

    private SourceNode offered(NodeDescriptors d) {
        SourceNode n = node();
        d.offer(n, open(), false);
        return n;
    }

    private static boolean open(SourceNode n) {
        return n.users >= 0 && n.fd >= 0;
    }

    @AfterEach
    void closeEverything() {
        if (made != null) made.closeAll(nodes);
    }

    @Test
    void keepsAtMostItsCapacityOfDescriptorsNothingUses() {
        NodeDescriptors d = descriptors(3);
        for (int i = 0; i < 10; i++) {
            offered(d);
        }
        assertEquals(3, d.held());
        assertEquals(3, nodes.stream().filter(NodeDescriptorsTest::open).count());
    }

    /** The hand passes a node used since it last passed: of two older nodes, the one not used since is closed first. */
    @Test
    void aNodeUsedSinceTheHandPassedIsPassedOnce() {
        NodeDescriptors d = descriptors(2);
        SourceNode a = offered(d);
        SourceNode b = offered(d);
        SourceNode c = offered(d); // the hand unmarks a and b, then closes a
        assertTrue(!open(a) && open(b) && open(c));
        SourceNode e = offered(d); // b is unmarked, c marked since it came
        assertTrue(!open(b) && open(c) && open(e), "b closed before c");
    }

    @Test
    void aDescriptorInUseIsNeverClosedAndAForgottenOneClosesWhenItsLastUseEnds() {
        NodeDescriptors d = descriptors(1);
        SourceNode used = offered(d);
        long use = d.acquire(used);
        assertEquals(used.fd, use);
        for (int i = 0; i < 5; i++) {
            offered(d);
        }
        assertTrue(open(used), "in use: not closed");
        d.forget(used);
        assertTrue(open(used), "forgotten, still in use");
        d.release(used, use);
        assertTrue(!open(used), "closed by its last use");
        assertEquals(NodeDescriptors.MISS, d.acquire(used));
        long transientUse = d.install(used, open());
        assertTrue((transientUse & NodeDescriptors.TRANSIENT) != 0, "a forgotten node's descriptor is the operation's alone");
        d.release(used, transientUse);
        assertEquals(-Errno.EBADF, Libc.close((int) transientUse), "closed when the operation gave it back");
    }

    @Test
    void pinnedAndKeptDescriptorsAreNotCountedNorClosed() {
        NodeDescriptors d = descriptors(2);
        SourceNode pinned = offered(d);
        d.pin(pinned);
        SourceNode kept = node();
        d.offer(kept, open(), true);
        for (int i = 0; i < 6; i++) {
            offered(d);
        }
        assertTrue(open(pinned) && open(kept));
        assertEquals(2 + 2, d.held(), "the pinned, the kept, and two more");
        d.shrink();
        d.shrink();
        assertTrue(open(pinned) && open(kept), "not even when the process ran out");
        offered(d);
        offered(d);
        d.unpin(pinned);
        assertEquals(1 + 2, d.held(), "unpinned, it counts again: the kept and two");
        assertTrue(open(pinned) && open(kept));
    }

    @Test
    void shrinkingClosesHalfOfThoseNothingUses() {
        NodeDescriptors d = descriptors(8);
        for (int i = 0; i < 8; i++) {
            offered(d);
        }
        long use = d.acquire(nodes.get(0));
        assertEquals(4, d.shrink());
        assertTrue(open(nodes.get(0)), "in use");
        assertEquals(4, d.held());
        d.release(nodes.get(0), use);
    }

    @Test
    void runningOutOfDescriptorsIsSaidOncePerBurstWithTheLimitAndHowToRaiseIt() {
        ListAppender<ILoggingEvent> log = new ListAppender<>();
        Logger logger = (Logger) LoggerFactory.getLogger(InodeMirror.class);
        log.start();
        logger.addAppender(log);
        try {
            DescriptorLimit limit = new DescriptorLimit();
            for (int i = 0; i < 100; i++) {
                limit.report(Errno.EMFILE, 17);
            }
            limit.report(Errno.ENFILE, 17);
            assertEquals(1, log.list.size(), "once for the burst");
            ILoggingEvent e = log.list.get(0);
            assertEquals(Level.WARN, e.getLevel());
            String m = e.getFormattedMessage();
            assertTrue(m.contains("EMFILE") && m.contains("RLIMIT_NOFILE is " + DescriptorLimit.openFiles()) && m.contains("ulimit -n")
                    && m.contains("holds 17 descriptors of its nodes"), m);
        } finally {
            logger.detachAppender(log);
        }
    }
}
