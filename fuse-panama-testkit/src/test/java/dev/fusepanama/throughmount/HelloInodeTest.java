package dev.fusepanama.throughmount;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.fusepanama.Errno;
import dev.fusepanama.Posix;
import dev.fusepanama.inode.AttrReply;
import dev.fusepanama.inode.DataReply;
import dev.fusepanama.inode.DirReply;
import dev.fusepanama.inode.EntryReply;
import dev.fusepanama.inode.Inode;
import dev.fusepanama.inode.InodeFileSystem;
import dev.fusepanama.inode.Name;
import dev.fusepanama.inode.OpenReply;
import dev.fusepanama.inode.Request;
import dev.fusepanama.inode.Timeouts;
import dev.fusepanama.testkit.MountTest;
import dev.fusepanama.testkit.TestMount;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@MountTest
@Timeout(60)
class HelloInodeTest {
    static final byte[] HELLO = "hello".getBytes(StandardCharsets.UTF_8);
    static final Inode HELLO_INODE = Inode.of(2);
    static final Timeouts ONE_SECOND = Timeouts.NONE.withAttributes(1).withEntries(1);
    static final byte[] TEXT = "Hello, inodes!\n".getBytes(StandardCharsets.UTF_8);

    static final class Hello implements InodeFileSystem {
        @Override
        public void lookup(Request request, long parent, Name name, EntryReply reply) {
            if (parent != InodeFileSystem.ROOT || !name.is(HELLO)) {
                reply.error(Errno.ENOENT);
                return;
            }
            reply.attributes().setMode(Posix.S_IFREG | 0444).setNlink(1).setSize(TEXT.length);
            reply.entry(HELLO_INODE, ONE_SECOND);
        }

        @Override
        public void getattr(Request request, long ino, long fh, AttrReply reply) {
            if (ino == InodeFileSystem.ROOT) {
                reply.attributes().setIno(1).setMode(Posix.S_IFDIR | 0755).setNlink(2);
            } else if (ino == 2) {
                reply.attributes().setIno(2).setMode(Posix.S_IFREG | 0444).setNlink(1).setSize(TEXT.length);
            } else {
                reply.error(Errno.ENOENT);
                return;
            }
            reply.send(ONE_SECOND);
        }

        @Override
        public void open(Request request, long ino, int flags, OpenReply reply) {
            reply.open(7, 0);
        }

        @Override
        public void read(Request request, long ino, long fh, long size, long offset, DataReply reply) {
            int from = (int) Math.min(offset, TEXT.length);
            reply.data(TEXT, from, (int) Math.min(size, TEXT.length - from));
        }

        @Override
        public void readdir(Request request, long ino, long fh, long size, long offset, DirReply reply) {
            if (offset < 1 && reply.add(".".getBytes(), 1, Posix.S_IFDIR, 1)) { reply.send(); return; }
            if (offset < 2 && reply.add("..".getBytes(), 1, Posix.S_IFDIR, 2)) { reply.send(); return; }
            if (offset < 3) reply.add(HELLO, 2, Posix.S_IFREG, 3);
            reply.send();
        }
    }

    @Test
    void aFileCanBeListedStattedAndRead() throws Exception {
        try (TestMount m = TestMount.mount(new Hello())) {
            try (Stream<java.nio.file.Path> s = Files.list(m.root())) {
                assertEquals(List.of("hello"), s.map(p -> p.getFileName().toString()).collect(Collectors.toList()));
            }
            assertEquals(TEXT.length, Files.size(m.path("hello")));
            assertEquals(new String(TEXT, StandardCharsets.UTF_8), Files.readString(m.path("hello")));
        }
    }
}
