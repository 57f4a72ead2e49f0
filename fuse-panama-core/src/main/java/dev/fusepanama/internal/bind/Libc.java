package dev.fusepanama.internal.bind;

import static dev.fusepanama.internal.bind.Native.C_INT;
import static dev.fusepanama.internal.bind.Native.C_LONG;
import static dev.fusepanama.internal.bind.Native.C_POINTER;
import static dev.fusepanama.internal.bind.Native.LINKER;
import static java.lang.foreign.ValueLayout.ADDRESS;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;

/**
 * The few libc functions core calls itself. Calls that report through errno capture it with
 * {@link Linker.Option#captureCallState} into a per-thread segment allocated once per thread
 * (see openjdk PR 23517: a fresh capture segment per call is the cost to avoid).
 */
public final class Libc {
    private Libc() {}

    private static final Linker.Option CAPTURE_ERRNO = Linker.Option.captureCallState("errno");
    private static final StructLayout CAPTURE_LAYOUT = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = CAPTURE_LAYOUT.varHandle(MemoryLayout.PathElement.groupElement("errno"));

    private static final ThreadLocal<MemorySegment> CAPTURE =
            ThreadLocal.withInitial(() -> Arena.ofAuto().allocate(CAPTURE_LAYOUT));

    private static final MethodHandle UMOUNT2 = LINKER.downcallHandle(
            LINKER.defaultLookup().find("umount2").orElseThrow(),
            FunctionDescriptor.of(C_INT, ADDRESS, C_INT), CAPTURE_ERRNO);
    private static final MethodHandle MALLOC = LINKER.downcallHandle(
            LINKER.defaultLookup().find("malloc").orElseThrow(),
            FunctionDescriptor.of(C_POINTER, C_LONG), Linker.Option.critical(false));
    private static final MethodHandle VSNPRINTF = LINKER.downcallHandle(
            LINKER.defaultLookup().find("vsnprintf").orElseThrow(),
            FunctionDescriptor.of(C_INT, C_POINTER, C_LONG, C_POINTER, C_POINTER));
    private static final MethodHandle GETEUID = LINKER.downcallHandle(
            LINKER.defaultLookup().find("geteuid").orElseThrow(), FunctionDescriptor.of(C_INT));

    /** {@code MNT_DETACH} (sys/mount.h): lazy unmount. */
    public static final int MNT_DETACH = 2;

    /** {@code umount2(path, flags)}: 0, or the errno it failed with (positive). */
    public static int umount2(MemorySegment path, int flags) {
        MemorySegment capture = CAPTURE.get();
        try {
            int rc = (int) UMOUNT2.invokeExact(capture, path, flags);
            return rc == 0 ? 0 : (int) ERRNO.get(capture, 0L);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /** {@code malloc}: for structs libfuse will {@code free()} itself (read_buf's bufvec). */
    public static long malloc(long size) {
        try {
            return (long) MALLOC.invokeExact(size);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    public static int vsnprintf(long buffer, long size, long format, long vaList) {
        try {
            return (int) VSNPRINTF.invokeExact(buffer, size, format, vaList);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    public static int geteuid() {
        try {
            return (int) GETEUID.invokeExact();
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }
}
