package dev.fusepanama.internal.view;

import dev.fusepanama.Timespec;
import dev.fusepanama.libc.structs.timespec;

/** {@link Timespec} over a {@code struct timespec}. */
public final class NativeTimespec implements Timespec {
    private long a;

    public NativeTimespec at(long address) {
        this.a = address;
        return this;
    }

    @Override public long seconds() { return timespec.tv_sec(a); }
    @Override public long nanos() { return timespec.tv_nsec(a); }
}
