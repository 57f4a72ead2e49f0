package dev.fusepanama.internal;

import dev.fusepanama.FuseContext;
import dev.fusepanama.internal.bind.LibFuse;
import dev.fusepanama.internal.bind.Native;
import dev.fusepanama.internal.bind.fuse_context;

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
        return CallerGroups.read((size, address) -> (int) lib.getGroups.invokeExact(size, address));
    }

    @Override
    public boolean interrupted() {
        try {
            return (int) lib.interrupted.invokeExact() != 0;
        } catch (Throwable t) {
            return false;
        }
    }
}
