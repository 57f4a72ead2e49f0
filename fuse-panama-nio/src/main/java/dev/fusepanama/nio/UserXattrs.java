package dev.fusepanama.nio;

import static dev.fusepanama.nio.NioErrors.call;
import static dev.fusepanama.nio.NioFileSystem.text;

import dev.fusepanama.Errno;
import dev.fusepanama.ErrnoException;
import dev.fusepanama.Posix;
import dev.fusepanama.inode.EmptyReply;
import dev.fusepanama.inode.Name;
import dev.fusepanama.inode.Request;
import dev.fusepanama.inode.XattrReply;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.attribute.UserDefinedFileAttributeView;

/**
 * Extended attributes for a {@link NioFileSystem}: the {@code user.} namespace, kept in the
 * provider's {@link UserDefinedFileAttributeView}. Apart because the kernel's xattr calls map onto
 * that view with rules of their own (the namespace prefix, XATTR_CREATE and XATTR_REPLACE,
 * ERANGE), and a provider without the view must be answered so that the kernel stops asking.
 */
final class UserXattrs {
    private final NioFileSystem fs;
    /** Whether the provider has user-defined attributes (the {@code user} view), served as user.* extended attributes. */
    private final boolean userXattrs;

    UserXattrs(NioFileSystem fs) {
        this.fs = fs;
        this.userXattrs = fs.root.getFileSystem().supportedFileAttributeViews().contains("user");
    }

    /** The provider's user attributes of {@code ino}, and the name without "user."; EOPNOTSUPP for another namespace. */
    private UserDefinedFileAttributeView xattrs(long ino) throws IOException {
        UserDefinedFileAttributeView v = Files.getFileAttributeView(fs.path(fs.node(ino)), UserDefinedFileAttributeView.class,
                LinkOption.NOFOLLOW_LINKS);
        if (v == null) throw new ErrnoException(Errno.EOPNOTSUPP);
        return v;
    }

    private static String userName(Name name) throws ErrnoException {
        String s = text(name);
        if (s == null || !s.startsWith("user.") || s.length() == 5) throw new ErrnoException(Errno.EOPNOTSUPP);
        return s.substring(5);
    }

    private static boolean has(UserDefinedFileAttributeView v, String name) throws IOException {
        return call(v::list).contains(name);
    }

    /**
     * ENOSYS where the provider has no user attributes at all: the kernel then answers EOPNOTSUPP
     * itself and stops asking (it asks for security.capability before every write otherwise).
     */
    private void requireUserXattrs() throws ErrnoException {
        if (!userXattrs) throw new ErrnoException(Errno.ENOSYS);
    }

    void setxattr(Request request, long ino, Name name, ByteBuffer value, int flags, EmptyReply reply) throws IOException {
        requireUserXattrs();
        String n = userName(name);
        UserDefinedFileAttributeView v = xattrs(ino);
        if ((flags & Posix.XATTR_CREATE) != 0 && has(v, n)) throw new ErrnoException(Errno.EEXIST);
        if ((flags & Posix.XATTR_REPLACE) != 0 && !has(v, n)) throw new ErrnoException(Errno.ENODATA);
        call(() -> v.write(n, value));
        reply.ok();
    }

    void getxattr(Request request, long ino, Name name, long size, XattrReply reply) throws IOException {
        requireUserXattrs();
        String n = userName(name);
        UserDefinedFileAttributeView v = xattrs(ino);
        if (!has(v, n)) throw new ErrnoException(Errno.ENODATA);
        int length = call(() -> v.size(n));
        if (size == 0) {
            reply.size(length);
            return;
        }
        if (length > size) throw new ErrnoException(Errno.ERANGE);
        ByteBuffer buf = ByteBuffer.allocate(length);
        call(() -> v.read(n, buf));
        reply.data(buf.array(), 0, buf.position());
    }

    void listxattr(Request request, long ino, long size, XattrReply reply) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        UserDefinedFileAttributeView v;
        try {
            v = xattrs(ino);
        } catch (ErrnoException none) {
            v = null; // a file of a provider without user attributes has none to list
        }
        if (v != null) {
            for (String n : call(v::list)) {
                out.writeBytes(("user." + n).getBytes(StandardCharsets.UTF_8));
                out.write(0);
            }
        }
        if (size == 0) {
            reply.size(out.size());
        } else if (out.size() > size) {
            throw new ErrnoException(Errno.ERANGE);
        } else {
            reply.data(out.toByteArray(), 0, out.size());
        }
    }

    void removexattr(Request request, long ino, Name name, EmptyReply reply) throws IOException {
        requireUserXattrs();
        String n = userName(name);
        UserDefinedFileAttributeView v = xattrs(ino);
        if (!has(v, n)) throw new ErrnoException(Errno.ENODATA);
        call(() -> {
            v.delete(n);
            return null;
        });
        reply.ok();
    }
}
