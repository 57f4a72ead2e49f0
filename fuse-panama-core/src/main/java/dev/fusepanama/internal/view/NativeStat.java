package dev.fusepanama.internal.view;

import dev.fusepanama.Stat;

/** {@link Stat} over a {@code struct stat} at a changing address. */
public final class NativeStat implements StatFields {
    private long a;

    public NativeStat at(long address) {
        this.a = address;
        return this;
    }

    public long address() { return a; }

    @Override public long statAddress() { return a; }
}
