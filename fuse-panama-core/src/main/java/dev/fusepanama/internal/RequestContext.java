package dev.fusepanama.internal;

import dev.fusepanama.FuseContext;
import dev.fusepanama.internal.bind.LibFuse;
import dev.fusepanama.internal.bind.Native;
import dev.fusepanama.internal.bind.fuse_context;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/** {@link FuseContext} read from libfuse's per-thread {@code fuse_get_context()}. */
public final class RequestContext implements FuseContext {
    private static final ThreadLocal<RequestContext> CURRENT = ThreadLocal.withInitial(RequestContext::new);

    private final LibFuse lib = LibFuse.get();
    private long a;

    public static FuseContext current() {
        RequestContext c = CURRENT.get();
        try {
            c.a = (long) c.lib.getContext.invokeExact();
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
        if (c.a == 0 || Native.getAddress(c.a) == 0) {
            throw new IllegalStateException("FuseContext.current() is only available inside a filesystem operation");
        }
        return c;
    }

    @Override public int uid() { return fuse_context.uid(a); }
    @Override public int gid() { return fuse_context.gid(a); }
    @Override public int pid() { return fuse_context.pid(a); }
    @Override public int umask() { return fuse_context.umask(a); }

    @Override
    public int[] groups() {
        try (Arena arena = Arena.ofConfined()) {
            int capacity = 64;
            while (true) {
                MemorySegment list = arena.allocate(ValueLayout.JAVA_INT, capacity);
                int n = (int) lib.getGroups.invokeExact(capacity, list.address());
                if (n < 0) {
                    return new int[0];
                }
                if (n <= capacity) {
                    return list.asSlice(0, n * 4L).toArray(ValueLayout.JAVA_INT);
                }
                capacity = n;
            }
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    @Override
    public boolean interrupted() {
        try {
            return (int) lib.interrupted.invokeExact() != 0;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }
}
