package dev.fusepanama.libc;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.invoke.MethodHandle;

/**
 * The C library's heap, for memory libfuse frees or hands back ({@code malloc}, {@code calloc},
 * {@code free}), and {@code vsnprintf} for libfuse's log messages. Bound and called as {@link
 * Libc}'s are: a call that can fail returns the C result, or {@code -errno} captured on the
 * calling thread.
 */
public final class NativeMemory {
    private NativeMemory() {}

    private static final MethodHandle MALLOC = Libc.bind("malloc", Libc.l(JAVA_LONG), Linker.Option.critical(false));
    // Not critical: under memory pressure either may fault or wait on malloc's lock, and a critical
    // call holds up every safepoint while it runs.
    private static final MethodHandle CALLOC = Libc.bind("calloc", Libc.l(JAVA_LONG, JAVA_LONG));
    private static final MethodHandle FREE = Libc.bind("free", FunctionDescriptor.ofVoid(JAVA_LONG));
    private static final MethodHandle VSNPRINTF = Libc.bind("vsnprintf", Libc.i(JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG));

    /**
     * {@code malloc(3)}, for memory that libfuse will {@code free()} itself.
     *
     * @param size the number of bytes
     * @return the address of the memory (not zeroed), or 0 when out of memory
     */
    public static long malloc(long size) {
        try { return (long) MALLOC.invokeExact(size); } catch (Throwable t) { throw Libc.broken(t); }
    }

    /**
     * {@code calloc(3)}: zeroed memory off the Java heap; give it back with {@link #free}.
     *
     * @param n the number of elements
     * @param size the size of one, in bytes
     * @return the address of {@code n * size} zeroed bytes, or 0 when out of memory
     */
    public static long calloc(long n, long size) {
        try { return (long) CALLOC.invokeExact(n, size); } catch (Throwable t) { throw Libc.broken(t); }
    }

    /**
     * {@code free(3)} of what {@link #malloc} or {@link #calloc} returned, once.
     *
     * @param address the address; 0 is allowed and does nothing
     */
    public static void free(long address) {
        try { FREE.invokeExact(address); } catch (Throwable t) { throw Libc.broken(t); }
    }

    /**
     * {@code vsnprintf(3)} with raw addresses: formats a {@code va_list} that native code handed in.
     *
     * @param buffer where the text goes, NUL-terminated
     * @param size the room there, the NUL included
     * @param format the address of the NUL-terminated {@code printf} format
     * @param vaList the {@code va_list}, used up by the call
     * @return the length the whole text has (more than {@code size - 1} if it was cut off), or a
     *     negative number for a bad format
     */
    public static int vsnprintf(long buffer, long size, long format, long vaList) {
        try { return (int) VSNPRINTF.invokeExact(buffer, size, format, vaList); } catch (Throwable t) { throw Libc.broken(t); }
    }
}
