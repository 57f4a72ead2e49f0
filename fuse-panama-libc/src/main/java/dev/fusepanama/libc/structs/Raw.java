package dev.fusepanama.libc.structs;

import java.lang.foreign.MemorySegment;

/** The whole address space as one segment: the structs' accessors read and write at raw addresses through it. */
final class Raw {
    private Raw() {}

    static final MemorySegment ALL = MemorySegment.NULL.reinterpret(Long.MAX_VALUE);
}
