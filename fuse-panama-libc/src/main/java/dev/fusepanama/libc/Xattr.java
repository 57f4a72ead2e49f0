package dev.fusepanama.libc;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

/**
 * Extended attributes ({@code xattr(7)}): the plain calls follow a final symbolic link, the
 * l-calls act on the link itself. Bound and called as {@link Libc}'s are: a call that can fail
 * returns the C result, or {@code -errno} captured on the calling thread.
 */
public final class Xattr {
    private Xattr() {}

    private static final MethodHandle GETXATTR = Libc.bind("getxattr", Libc.l(ADDRESS, ADDRESS, ADDRESS, JAVA_LONG), Libc.CAPTURE);
    private static final MethodHandle SETXATTR = Libc.bind("setxattr", Libc.i(ADDRESS, ADDRESS, ADDRESS, JAVA_LONG, JAVA_INT), Libc.CAPTURE);
    private static final MethodHandle LISTXATTR = Libc.bind("listxattr", Libc.l(ADDRESS, ADDRESS, JAVA_LONG), Libc.CAPTURE);
    private static final MethodHandle REMOVEXATTR = Libc.bind("removexattr", Libc.i(ADDRESS, ADDRESS), Libc.CAPTURE);
    private static final MethodHandle LGETXATTR = Libc.bind("lgetxattr", Libc.l(ADDRESS, ADDRESS, ADDRESS, JAVA_LONG), Libc.CAPTURE);
    private static final MethodHandle LSETXATTR = Libc.bind("lsetxattr", Libc.i(ADDRESS, ADDRESS, ADDRESS, JAVA_LONG, JAVA_INT), Libc.CAPTURE);
    private static final MethodHandle LLISTXATTR = Libc.bind("llistxattr", Libc.l(ADDRESS, ADDRESS, JAVA_LONG), Libc.CAPTURE);
    private static final MethodHandle LREMOVEXATTR = Libc.bind("lremovexattr", Libc.i(ADDRESS, ADDRESS), Libc.CAPTURE);

    /*
     * Extended attributes: the plain calls follow a final symbolic link, the l-calls act on the
     * link itself.
     */

    /**
     * {@code getxattr(2)}: the value of an extended attribute, following a final symbolic link.
     *
     * @param path the NUL-terminated path
     * @param name the NUL-terminated attribute name, with its namespace ({@code user.foo})
     * @param value where the value goes
     * @param size the room there, or 0 to ask for the value's size only
     * @return the value's size in bytes, or -errno: -ENODATA for no such attribute, -ERANGE if it
     *     does not fit, -ENOTSUP where the filesystem has none
     */
    public static long getxattr(MemorySegment path, MemorySegment name, MemorySegment value, long size) {
        MemorySegment errno = Libc.THREAD_ERRNO.get();
        try { return Libc.r((long) GETXATTR.invokeExact(errno, path, name, value, size), errno); } catch (Throwable t) { throw Libc.broken(t); }
    }

    /**
     * {@code setxattr(2)}: sets an extended attribute, following a final symbolic link.
     *
     * @param path the NUL-terminated path
     * @param name the NUL-terminated attribute name, with its namespace
     * @param value the value's bytes
     * @param size how many
     * @param flags {@code XATTR_CREATE} (1: -EEXIST if it exists), {@code XATTR_REPLACE} (2: -ENODATA if not), or 0
     * @return 0, or -errno
     */
    public static int setxattr(MemorySegment path, MemorySegment name, MemorySegment value, long size, int flags) {
        MemorySegment errno = Libc.THREAD_ERRNO.get();
        try { return Libc.r((int) SETXATTR.invokeExact(errno, path, name, value, size, flags), errno); } catch (Throwable t) { throw Libc.broken(t); }
    }

    /**
     * {@code listxattr(2)}: the names of a file's extended attributes, following a final symbolic link.
     *
     * @param path the NUL-terminated path
     * @param list where the names go, each NUL-terminated, one after another
     * @param size the room there ({@link Scratch#XATTR_LIST_MAX} is always enough), or 0 to ask for the size only
     * @return the list's size in bytes, or -errno (-ERANGE if it does not fit)
     */
    public static long listxattr(MemorySegment path, MemorySegment list, long size) {
        MemorySegment errno = Libc.THREAD_ERRNO.get();
        try { return Libc.r((long) LISTXATTR.invokeExact(errno, path, list, size), errno); } catch (Throwable t) { throw Libc.broken(t); }
    }

    /**
     * {@code removexattr(2)}: removes an extended attribute, following a final symbolic link.
     *
     * @param path the NUL-terminated path
     * @param name the NUL-terminated attribute name
     * @return 0, or -errno (-ENODATA for no such attribute)
     */
    public static int removexattr(MemorySegment path, MemorySegment name) {
        MemorySegment errno = Libc.THREAD_ERRNO.get();
        try { return Libc.r((int) REMOVEXATTR.invokeExact(errno, path, name), errno); } catch (Throwable t) { throw Libc.broken(t); }
    }

    /**
     * {@code lgetxattr(2)}: {@link #getxattr} of a symbolic link itself.
     *
     * @param path the NUL-terminated path
     * @param name the NUL-terminated attribute name, with its namespace
     * @param value where the value goes
     * @param size the room there, or 0 to ask for the value's size only
     * @return the value's size in bytes, or -errno (-ENODATA, -ERANGE, -ENOTSUP as for {@link #getxattr})
     */
    public static long lgetxattr(MemorySegment path, MemorySegment name, MemorySegment value, long size) {
        MemorySegment errno = Libc.THREAD_ERRNO.get();
        try { return Libc.r((long) LGETXATTR.invokeExact(errno, path, name, value, size), errno); } catch (Throwable t) { throw Libc.broken(t); }
    }

    /**
     * {@code lsetxattr(2)}: {@link #setxattr} of a symbolic link itself (Linux allows only
     * {@code trusted.} and {@code security.} attributes on a link).
     *
     * @param path the NUL-terminated path
     * @param name the NUL-terminated attribute name, with its namespace
     * @param value the value's bytes
     * @param size how many
     * @param flags {@code XATTR_CREATE} (1), {@code XATTR_REPLACE} (2), or 0
     * @return 0, or -errno
     */
    public static int lsetxattr(MemorySegment path, MemorySegment name, MemorySegment value, long size, int flags) {
        MemorySegment errno = Libc.THREAD_ERRNO.get();
        try { return Libc.r((int) LSETXATTR.invokeExact(errno, path, name, value, size, flags), errno); } catch (Throwable t) { throw Libc.broken(t); }
    }

    /**
     * {@code llistxattr(2)}: {@link #listxattr} of a symbolic link itself.
     *
     * @param path the NUL-terminated path
     * @param list where the names go, each NUL-terminated
     * @param size the room there, or 0 to ask for the size only
     * @return the list's size in bytes, or -errno
     */
    public static long llistxattr(MemorySegment path, MemorySegment list, long size) {
        MemorySegment errno = Libc.THREAD_ERRNO.get();
        try { return Libc.r((long) LLISTXATTR.invokeExact(errno, path, list, size), errno); } catch (Throwable t) { throw Libc.broken(t); }
    }

    /**
     * {@code lremovexattr(2)}: {@link #removexattr} of a symbolic link itself.
     *
     * @param path the NUL-terminated path
     * @param name the NUL-terminated attribute name
     * @return 0, or -errno
     */
    public static int lremovexattr(MemorySegment path, MemorySegment name) {
        MemorySegment errno = Libc.THREAD_ERRNO.get();
        try { return Libc.r((int) LREMOVEXATTR.invokeExact(errno, path, name), errno); } catch (Throwable t) { throw Libc.broken(t); }
    }
}
