package dev.fusepanama.inode;

import dev.fusepanama.FuseContext;

/**
 * Who asked: the caller of an inode request, with what {@link FuseContext} tells on the path API
 * (the same answers, read the same way). A view reused for the thread's next request: valid only
 * during the call that receives it; copy what a deferred answer needs.
 */
public interface Request extends FuseContext {
    /**
     * Whether the caller may write to, truncate or chown a file and keep its set-ID bits: it has
     * CAP_FSETID in this process's user namespace (read from {@code /proc}: costs a file read, so
     * ask only for a file that has such bits; false when the caller is gone or in another user
     * namespace). The rule of {@link KernelCaching.Builder#handleKillprivV2}.
     */
    boolean mayKeepSetId();
}
