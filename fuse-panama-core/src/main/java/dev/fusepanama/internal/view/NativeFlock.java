package dev.fusepanama.internal.view;

import dev.fusepanama.Flock;
import dev.fusepanama.libc.structs.flock;

/** {@link Flock} over a {@code struct flock}. */
public final class NativeFlock implements Flock {
    private long a;

    public NativeFlock at(long address) {
        this.a = address;
        return this;
    }

    @Override public short type() { return flock.l_type(a); }
    @Override public Flock setType(short v) { flock.l_type(a, v); return this; }
    @Override public short whence() { return flock.l_whence(a); }
    @Override public Flock setWhence(short v) { flock.l_whence(a, v); return this; }
    @Override public long start() { return flock.l_start(a); }
    @Override public Flock setStart(long v) { flock.l_start(a, v); return this; }
    @Override public long length() { return flock.l_len(a); }
    @Override public Flock setLength(long v) { flock.l_len(a, v); return this; }
    @Override public int pid() { return flock.l_pid(a); }
    @Override public Flock setPid(int v) { flock.l_pid(a, v); return this; }
}
