package dev.fusepanama.internal.view;

import static dev.fusepanama.internal.bind.Native.C_INT;
import static dev.fusepanama.internal.bind.Native.C_LONG;
import static dev.fusepanama.internal.bind.Native.C_POINTER;
import static dev.fusepanama.internal.bind.Native.LINKER;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Downcall handles for {@code fuse_fill_dir_t}, one per distinct filler address, bound once and
 * shared. libfuse passes the same one or two function pointers on every readdir; a handle with
 * the address bound in is customised by the JIT into a direct call (the 2021 panama-dev readdir
 * thread: an unbound, "virtual" filler downcall was a large part of Panama's 3x gap to JNR).
 *
 * <p>The filler only appends to libfuse's buffer (it may realloc): it never blocks and never
 * calls back into Java, so it runs as a critical function, without a thread-state transition.
 */
public final class FillerHandles {
    private FillerHandles() {}

    /** {@code int (*)(void *buf, const char *name, const struct stat *st, off_t off, enum fuse_fill_dir_flags)}. */
    private static final MethodHandle FILLER = LINKER.downcallHandle(
            FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER, C_POINTER, C_LONG, C_INT),
            Linker.Option.critical(false));

    private static final ConcurrentHashMap<Long, MethodHandle> BOUND = new ConcurrentHashMap<>();

    public static MethodHandle forAddress(long address) {
        return BOUND.computeIfAbsent(address,
                a -> MethodHandles.insertArguments(FILLER, 0, MemorySegment.ofAddress(a)));
    }
}
