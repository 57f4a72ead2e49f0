package dev.fusepanama.examples.mirror;

import static dev.fusepanama.examples.mirror.SourceNodes.nativeName;

import dev.fusepanama.inode.EmptyReply;
import dev.fusepanama.inode.Name;
import dev.fusepanama.inode.Request;
import dev.fusepanama.inode.XattrReply;
import dev.fusepanama.libc.Scratch;
import dev.fusepanama.libc.Xattr;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;

/**
 * The mirror's extended attributes: by the node's /proc/self/fd name, which reaches the file
 * itself, a symbolic link's too (the *xattrat calls take no O_PATH descriptor: EBADF).
 */
final class Xattrs {
    private final SourceNodes table;

    Xattrs(SourceNodes table) {
        this.table = table;
    }

    private static MemorySegment attributeName(Name name, Scratch s) throws IOException {
        return nativeName(name, s.path2);
    }

    void setxattr(Request request, long ino, Name name, ByteBuffer value, int flags, EmptyReply reply) throws IOException {
        Scratch s = Scratch.worker();
        SourceNode n = table.node(ino);
        MemorySegment a = attributeName(name, s);
        MemorySegment v = MemorySegment.ofBuffer(value);
        long d = table.descriptor(n);
        if (d < 0) {
            table.fail(reply, (int) -d);
            return;
        }
        int rc = Xattr.setxattr(s.procPath((int) d), a, v, value.remaining(), flags);
        table.release(n, d);
        table.answer(rc, reply);
    }

    void getxattr(Request request, long ino, Name name, long size, XattrReply reply) throws IOException {
        Scratch s = Scratch.worker();
        SourceNode n = table.node(ino);
        MemorySegment a = attributeName(name, s);
        MemorySegment into = size == 0 ? MemorySegment.NULL : s.xattrList().asSlice(0, Math.min(size, Scratch.XATTR_LIST_MAX));
        long d = table.descriptor(n);
        if (d < 0) {
            table.fail(reply, (int) -d);
            return;
        }
        long rc = Xattr.getxattr(s.procPath((int) d), a, into, into.byteSize());
        table.release(n, d);
        xattrAnswer(rc, size, into, reply);
    }

    void listxattr(Request request, long ino, long size, XattrReply reply) throws IOException {
        Scratch s = Scratch.worker();
        SourceNode n = table.node(ino);
        MemorySegment into = size == 0 ? MemorySegment.NULL : s.xattrList().asSlice(0, Math.min(size, Scratch.XATTR_LIST_MAX));
        long d = table.descriptor(n);
        if (d < 0) {
            table.fail(reply, (int) -d);
            return;
        }
        long rc = Xattr.listxattr(s.procPath((int) d), into, into.byteSize());
        table.release(n, d);
        xattrAnswer(rc, size, into, reply);
    }

    private void xattrAnswer(long rc, long size, MemorySegment value, XattrReply reply) {
        if (rc < 0) {
            table.fail(reply, (int) -rc);
        } else if (size == 0) {
            reply.size(rc);
        } else {
            reply.data(value.asSlice(0, rc).asByteBuffer());
        }
    }

    void removexattr(Request request, long ino, Name name, EmptyReply reply) throws IOException {
        Scratch s = Scratch.worker();
        SourceNode n = table.node(ino);
        MemorySegment a = attributeName(name, s);
        long d = table.descriptor(n);
        if (d < 0) {
            table.fail(reply, (int) -d);
            return;
        }
        int rc = Xattr.removexattr(s.procPath((int) d), a);
        table.release(n, d);
        table.answer(rc, reply);
    }
}
