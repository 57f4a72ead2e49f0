package dev.fusepanama.internal.inode;

import dev.fusepanama.inode.Request;
import dev.fusepanama.internal.bind.LibFuseLowLevel;
import dev.fusepanama.internal.bind.fuse_ctx;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/** {@link Request} over a {@code fuse_req_t}; re-pointed for each request, read only when asked. */
final class NativeRequest implements Request {
    private static final int MAX_GROUPS = 65536;
    private final LibFuseLowLevel ll;
    private long req;

    NativeRequest(LibFuseLowLevel ll) {
        this.ll = ll;
    }

    NativeRequest at(long request) {
        this.req = request;
        return this;
    }

    private long ctx() {
        try {
            return (long) ll.reqCtx.invokeExact(req);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    @Override public int uid() { return fuse_ctx.uid(ctx()); }
    @Override public int gid() { return fuse_ctx.gid(ctx()); }
    @Override public int pid() { return fuse_ctx.pid(ctx()); }
    @Override public int umask() { return fuse_ctx.umask(ctx()); }

    @Override
    public int[] groups() {
        try (Arena a = Arena.ofConfined()) {
            int size = 32;
            while (true) {
                MemorySegment list = a.allocate(ValueLayout.JAVA_INT, size);
                int n = (int) ll.reqGetgroups.invokeExact(req, size, list.address());
                if (n < 0) {
                    return null;
                }
                if (n <= size) {
                    return list.asSlice(0, 4L * n).toArray(ValueLayout.JAVA_INT);
                }
                if (n > MAX_GROUPS) {
                    return null;
                }
                size = n;
            }
        } catch (Throwable t) {
            return null;
        }
    }

    @Override
    public boolean interrupted() {
        try {
            return (int) ll.reqInterrupted.invokeExact(req) != 0;
        } catch (Throwable t) {
            return false;
        }
    }
}
