package dev.fusepanama.internal.view;

import dev.fusepanama.Errno;
import dev.fusepanama.PollHandle;
import dev.fusepanama.internal.bind.LibFuse;

/**
 * {@link PollHandle} over a {@code struct fuse_pollhandle *}. The per-thread instance serves the
 * poll call; {@link #retain()} hands out a separate object that owns the handle from then on
 * (the same one however often it is called), because the per-thread instance is re-pointed at
 * the next request's handle.
 */
public final class NativePollHandle implements PollHandle {
    /**
     * The session a handle belongs to, kept alive while a notification is sent: a handle points
     * into its session, so notifying after the session was freed would write to freed memory.
     */
    public interface Guard {
        /** Holds the session alive and returns true, or returns false (holding nothing) if it has ended. */
        boolean enterLive();

        void exitLive();

        /** For upcalls run outside a mount (tests, benchmarks): always live. */
        Guard NONE = new Guard() {
            @Override public boolean enterLive() { return true; }
            @Override public void exitLive() {}
        };
    }

    private final LibFuse lib;
    private long handle;
    private boolean retained;
    private NativePollHandle owner;
    private Guard guard;

    public NativePollHandle(LibFuse lib) {
        this.lib = lib;
    }

    private NativePollHandle(LibFuse lib, long handle, Guard guard) {
        this.lib = lib;
        this.handle = handle;
        this.guard = guard;
        this.retained = true;
    }

    /** Points at {@code handle} of {@code guard}'s session; null for a NULL pointer (the caller does not want notification). */
    public NativePollHandle at(long handle, Guard guard) {
        this.handle = handle;
        this.guard = guard;
        this.retained = false;
        this.owner = null;
        return handle == 0 ? null : this;
    }

    /** After poll returned: releases the handle unless the filesystem retained it. */
    public void afterPoll() {
        if (handle != 0 && !retained) {
            destroy(handle);
        }
        handle = 0;
    }

    @Override
    public synchronized PollHandle retain() {
        if (handle == 0) {
            throw new IllegalStateException("poll handle already released");
        }
        if (owner != null) {
            return owner; // the per-thread view retained twice
        }
        if (retained) {
            return this; // a retained handle itself
        }
        retained = true;
        owner = new NativePollHandle(lib, handle, guard);
        return owner;
    }

    @Override
    public synchronized void notifyReady() {
        long h = handle;
        if (h == 0) {
            throw new IllegalStateException("poll handle already released");
        }
        if (guard.enterLive()) { // else the session has ended: nobody waits any more
            try {
                int rc = (int) lib.notifyPoll.invokeExact(h);
                if (rc != 0 && rc != -Errno.ENOENT) {
                    org.slf4j.LoggerFactory.getLogger(NativePollHandle.class).debug("fuse_notify_poll: {}", Errno.name(rc));
                }
            } catch (Throwable t) {
                throw new IllegalStateException(t);
            } finally {
                guard.exitLive();
            }
        }
        release();
    }

    @Override
    public synchronized void release() {
        long h = handle;
        handle = 0;
        if (h != 0) {
            destroy(h);
        }
    }

    private void destroy(long h) {
        try {
            lib.pollhandleDestroy.invokeExact(h);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }
}
