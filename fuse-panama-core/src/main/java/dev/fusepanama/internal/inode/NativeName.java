package dev.fusepanama.internal.inode;

import dev.fusepanama.inode.Name;
import dev.fusepanama.internal.bind.Native;
import dev.fusepanama.internal.codec.NameCodec;

/** {@link Name} over a NUL-terminated string in the request; re-pointed for each request. */
final class NativeName implements Name {
    private long a;
    private int length;

    NativeName at(long address) {
        int n = 0;
        while (Native.getByte(address + n) != 0) {
            n++;
        }
        this.a = address;
        this.length = n;
        return this;
    }

    long address() {
        return a;
    }

    @Override
    public int length() {
        return length;
    }

    @Override
    public byte byteAt(int index) {
        if (index < 0 || index >= length) {
            throw new IndexOutOfBoundsException(index);
        }
        return Native.getByte(a + index);
    }

    @Override
    public byte[] bytes() {
        byte[] b = new byte[length];
        for (int i = 0; i < length; i++) {
            b[i] = Native.getByte(a + i);
        }
        return b;
    }

    @Override
    public boolean is(byte[] bytes) {
        if (bytes.length != length) {
            return false;
        }
        for (int i = 0; i < length; i++) {
            if (bytes[i] != Native.getByte(a + i)) {
                return false;
            }
        }
        return true;
    }

    @Override
    public String toString() {
        return NameCodec.decode(a, length);
    }
}
