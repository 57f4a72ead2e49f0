package dev.fusepanama.vault;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;

import dev.fusepanama.ErrnoException;
import dev.fusepanama.Stat;
import dev.fusepanama.libc.Libc;
import java.lang.foreign.MemorySegment;

/** The vault's small helpers around libc: results checked into {@link ErrnoException}s, C strings in scratch memory, whole reads and writes. */
final class LibcCalls {
    private LibcCalls() {}

    static int check(int rc) throws ErrnoException {
        if (rc < 0) throw new ErrnoException(-rc);
        return rc;
    }

    static long check(long rc) throws ErrnoException {
        if (rc < 0) throw new ErrnoException((int) -rc);
        return rc;
    }

    /** {@code chars}, a byte each (a stored name as the table keys it), NUL-terminated in {@code buffer}. */
    static MemorySegment cString(MemorySegment buffer, String chars) {
        int n = chars.length();
        for (int i = 0; i < n; i++) buffer.set(JAVA_BYTE, i, (byte) chars.charAt(i));
        buffer.set(JAVA_BYTE, n, (byte) 0);
        return buffer;
    }

    static long preadFully(int fd, MemorySegment buf, long size, long offset) throws ErrnoException {
        long done = 0;
        while (done < size) {
            long n = check(Libc.pread(fd, buf.asSlice(done), size - done, offset + done));
            if (n == 0) break;
            done += n;
        }
        return done;
    }

    static void pwriteFully(int fd, MemorySegment buf, long size, long offset) throws ErrnoException {
        long done = 0;
        while (done < size) {
            done += check(Libc.pwrite(fd, buf.asSlice(done), size - done, offset + done));
        }
    }

    /** The ctime in {@code st}, in nanoseconds. */
    static long ctime(Stat st) {
        return st.ctimeSeconds() * 1_000_000_000L + st.ctimeNanos();
    }
}
