package dev.fusepanama.libc.structs;

import static dev.fusepanama.libc.structs.Raw.ALL;
import static java.lang.foreign.MemoryLayout.PathElement.groupElement;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import java.lang.foreign.MemoryLayout;
import java.lang.foreign.StructLayout;
import java.lang.invoke.VarHandle;

/** {@code struct flock} (fcntl.h, 64-bit off_t): a POSIX record lock. */
public final class flock {
    private flock() {}

    /** The layout of {@code struct flock}: 32 bytes. */
    public static final StructLayout LAYOUT = MemoryLayout.structLayout(
            JAVA_SHORT.withName("l_type"),
            JAVA_SHORT.withName("l_whence"),
            MemoryLayout.paddingLayout(4),
            JAVA_LONG.withName("l_start"),
            JAVA_LONG.withName("l_len"),
            JAVA_INT.withName("l_pid"),
            MemoryLayout.paddingLayout(4)).withName("flock");

    private static final VarHandle l_type = LAYOUT.varHandle(groupElement("l_type"));
    private static final VarHandle l_whence = LAYOUT.varHandle(groupElement("l_whence"));
    private static final VarHandle l_start = LAYOUT.varHandle(groupElement("l_start"));
    private static final VarHandle l_len = LAYOUT.varHandle(groupElement("l_len"));
    private static final VarHandle l_pid = LAYOUT.varHandle(groupElement("l_pid"));

    /**
     * {@return {@code l_type}: the lock's type: {@code F_RDLCK} (0), {@code F_WRLCK} (1) or {@code F_UNLCK} (2)}
     *
     * @param f the address of a {@code struct flock}
     */
    public static short l_type(long f) { return (short) l_type.get(ALL, f); }
    /**
     * {@return {@code l_whence}: what {@code l_start} counts from: {@code SEEK_SET}, {@code SEEK_CUR}, {@code SEEK_END}}
     *
     * @param f the address of a {@code struct flock}
     */
    public static short l_whence(long f) { return (short) l_whence.get(ALL, f); }
    /**
     * {@return {@code l_start}: the first byte of the range, from {@code l_whence}}
     *
     * @param f the address of a {@code struct flock}
     */
    public static long l_start(long f) { return (long) l_start.get(ALL, f); }
    /**
     * {@return {@code l_len}: the length of the range in bytes, 0 for up to the end of the file (however far it grows)}
     *
     * @param f the address of a {@code struct flock}
     */
    public static long l_len(long f) { return (long) l_len.get(ALL, f); }
    /**
     * {@return {@code l_pid}: the process that holds a conflicting lock ({@code F_GETLK}), -1 for an open file description lock}
     *
     * @param f the address of a {@code struct flock}
     */
    public static int l_pid(long f) { return (int) l_pid.get(ALL, f); }

    /**
     * Sets {@code l_type}: the lock's type: {@code F_RDLCK} (0), {@code F_WRLCK} (1) or {@code F_UNLCK} (2).
     *
     * @param f the address of a {@code struct flock}
     * @param v the new value
     */
    public static void l_type(long f, short v) { l_type.set(ALL, f, v); }
    /**
     * Sets {@code l_whence}: what {@code l_start} counts from: {@code SEEK_SET}, {@code SEEK_CUR}, {@code SEEK_END}.
     *
     * @param f the address of a {@code struct flock}
     * @param v the new value
     */
    public static void l_whence(long f, short v) { l_whence.set(ALL, f, v); }
    /**
     * Sets {@code l_start}: the first byte of the range, from {@code l_whence}.
     *
     * @param f the address of a {@code struct flock}
     * @param v the new value
     */
    public static void l_start(long f, long v) { l_start.set(ALL, f, v); }
    /**
     * Sets {@code l_len}: the length of the range in bytes, 0 for up to the end of the file (however far it grows).
     *
     * @param f the address of a {@code struct flock}
     * @param v the new value
     */
    public static void l_len(long f, long v) { l_len.set(ALL, f, v); }
    /**
     * Sets {@code l_pid}: the process that holds a conflicting lock ({@code F_GETLK}), -1 for an open file description lock.
     *
     * @param f the address of a {@code struct flock}
     * @param v the new value
     */
    public static void l_pid(long f, int v) { l_pid.set(ALL, f, v); }
}
