package dev.fusepanama.internal.inode;

import dev.fusepanama.AccessTimes;
import dev.fusepanama.inode.InodeMount;
import dev.fusepanama.inode.Request;
import dev.fusepanama.internal.CallerGroups;
import dev.fusepanama.internal.bind.LibFuseLowLevel;
import dev.fusepanama.internal.bind.fuse_ctx;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;

/** {@link Request} over a {@code fuse_req_t}; re-pointed for each request, read only when asked. */
final class NativeRequest implements Request {
    private final LibFuseLowLevel ll;
    private long req;
    private RequestScope scope;
    private boolean fromPageCache;

    NativeRequest(LibFuseLowLevel ll) {
        this.ll = ll;
    }

    NativeRequest at(long request, RequestScope scope) {
        this.req = request;
        this.scope = scope;
        this.fromPageCache = false;
        return this;
    }

    /** As {@link #at}, for a write whose {@code fuse_file_info} says whether it flushes cached pages. */
    NativeRequest atWrite(long request, RequestScope scope, boolean fromPageCache) {
        at(request, scope);
        this.fromPageCache = fromPageCache;
        return this;
    }

    @Override
    public boolean fromPageCache() {
        return fromPageCache;
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
        return CallerGroups.read((size, address) -> (int) ll.reqGetgroups.invokeExact(req, size, address));
    }

    @Override
    public AccessTimes accessTimes() {
        return scope.accessTimes();
    }

    @Override
    public InodeMount mount() {
        return scope.mount();
    }

    @Override
    public boolean mayKeepSetId() {
        return hasFsetid(pid());
    }

    /** capability.h: CAP_FSETID. */
    private static final int CAP_FSETID = 4;
    private static final Path OWN_USER_NAMESPACE = Path.of("/proc/self/ns/user");

    /**
     * Whether thread {@code pid} has CAP_FSETID in its effective set and shares this process's user
     * namespace (capabilities held in a child namespace do not reach our inodes).
     */
    static boolean hasFsetid(int pid) {
        if (pid <= 0) {
            return false;
        }
        Path proc = Path.of("/proc", Integer.toString(pid));
        try {
            if (!sameUserNamespace(proc)) return false;
            for (String line : Files.readAllLines(proc.resolve("status"))) {
                if (line.startsWith("CapEff:")) {
                    long caps = Long.parseUnsignedLong(line.substring(7).trim(), 16);
                    return (caps & (1L << CAP_FSETID)) != 0;
                }
            }
            return false;
        } catch (IOException | RuntimeException e) {
            return false; // gone, or /proc unreadable: clearing the bits is the safe side
        }
    }

    /**
     * Whether the process at {@code proc} shares this process's user namespace: by the namespace's
     * link where this process may read it (the caller's own, or as root), else by the uid map,
     * which anyone may read and which differs between namespaces that map differently.
     */
    private static boolean sameUserNamespace(Path proc) throws IOException {
        try {
            return Files.readSymbolicLink(proc.resolve("ns/user"))
                    .equals(Files.readSymbolicLink(OWN_USER_NAMESPACE));
        } catch (AccessDeniedException notOurs) {
            return Files.readString(proc.resolve("uid_map"))
                    .equals(Files.readString(Path.of("/proc/self/uid_map")));
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
