package dev.fusepanama.internal.bind;

import java.lang.foreign.AddressLayout;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The shared pieces of every binding class.
 *
 * <p>Upcalls receive C pointers as {@code long} addresses rather than {@link MemorySegment}s:
 * a segment argument is a fresh object per upcall, an address is a register. Struct fields are
 * then read through {@code static final} VarHandles on {@link #ALL}, one segment spanning the
 * address space, with the struct's address as the offset. Pointers and {@code long} travel in
 * the same integer registers on every ABI the JDK's linker supports (x86-64 SysV, AArch64), so
 * declaring a {@code char *} parameter as {@link #C_POINTER} = {@code JAVA_LONG} is exact.
 */
public final class Native {
    private Native() {}

    public static final Linker LINKER = Linker.nativeLinker();

    /** Every byte of the address space; offsets into it are absolute addresses. */
    public static final MemorySegment ALL = MemorySegment.NULL.reinterpret(Long.MAX_VALUE);

    /** A C pointer passed by value, as a raw address. */
    public static final ValueLayout.OfLong C_POINTER = ValueLayout.JAVA_LONG;
    /** A C pointer stored in a struct. */
    public static final AddressLayout C_ADDRESS = ValueLayout.ADDRESS;
    public static final ValueLayout.OfInt C_INT = ValueLayout.JAVA_INT;
    public static final ValueLayout.OfLong C_LONG = ValueLayout.JAVA_LONG;
    public static final ValueLayout.OfShort C_SHORT = ValueLayout.JAVA_SHORT;
    public static final ValueLayout.OfDouble C_DOUBLE = ValueLayout.JAVA_DOUBLE;

    public static byte getByte(long address) {
        return ALL.get(ValueLayout.JAVA_BYTE, address);
    }

    public static void putByte(long address, byte value) {
        ALL.set(ValueLayout.JAVA_BYTE, address, value);
    }

    public static long getAddress(long address) {
        return ALL.get(ValueLayout.JAVA_LONG, address);
    }

    public static void putAddress(long address, long value) {
        ALL.set(ValueLayout.JAVA_LONG, address, value);
    }

    public static void putInt(long address, int value) {
        ALL.set(ValueLayout.JAVA_INT, address, value);
    }

    /** A view of {@code size} bytes at {@code address}: for copies and ByteBuffers, not for hot loops. */
    public static MemorySegment segment(long address, long size) {
        return ALL.asSlice(address, size);
    }
}
