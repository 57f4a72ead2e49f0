package dev.fusepanama.internal.view;

import dev.fusepanama.Errno;
import dev.fusepanama.XattrNames;
import dev.fusepanama.internal.codec.NameCodec;

/**
 * {@link XattrNames} over listxattr's {@code char *list, size_t size}: NUL-separated names.
 * With size 0 it only counts; when the names do not fit, the answer is ERANGE.
 */
public final class NativeXattrNames implements XattrNames {
    private long list;
    private long size;
    private long used;
    private boolean overflow;

    public NativeXattrNames at(long list, long size) {
        this.list = list;
        this.size = size;
        this.used = 0;
        this.overflow = false;
        return this;
    }

    @Override
    public void add(String name) {
        if (size == 0 || overflow) {
            used += NameCodec.encodedLength(name) + 1;
            return;
        }
        int n = NameCodec.encodeTo(name, list + used, size - used);
        if (n < 0) {
            overflow = true;
            used += NameCodec.encodedLength(name) + 1;
        } else {
            used += n + 1;
        }
    }

    /** What listxattr answers: the byte count, or -ERANGE. */
    public int result() {
        return overflow ? -Errno.ERANGE : (int) used;
    }
}
