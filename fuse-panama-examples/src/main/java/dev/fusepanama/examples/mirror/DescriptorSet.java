package dev.fusepanama.examples.mirror;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.function.IntConsumer;

/**
 * The descriptors a mirror holds for open handles, so that those whose release never came can be
 * closed when the mount ends. Adding and removing a descriptor below {@link #DENSE} flips one bit
 * of an array (8 KiB) atomically and allocates nothing; the rare larger ones go to a concurrent set.
 * Safe for concurrent use; a descriptor is added and removed by one thread at a time (its open
 * and its release), which is all the kernel's handle lifecycle needs.
 */
final class DescriptorSet {
    /** Descriptors below this are kept as bits. */
    static final int DENSE = 1 << 16;

    private static final VarHandle WORD = MethodHandles.arrayElementVarHandle(long[].class);

    private final long[] bits = new long[DENSE / Long.SIZE];
    private final Set<Integer> sparse = ConcurrentHashMap.newKeySet();

    void add(int fd) {
        if (fd < 0) {
            throw new IllegalArgumentException("not a descriptor: " + fd);
        }
        if (fd < DENSE) {
            WORD.getAndBitwiseOr(bits, fd >>> 6, 1L << fd);
        } else {
            sparse.add(fd);
        }
    }

    void remove(int fd) {
        if (fd >= 0 && fd < DENSE) {
            WORD.getAndBitwiseAnd(bits, fd >>> 6, ~(1L << fd));
        } else {
            sparse.remove(fd);
        }
    }

    /** Removes every descriptor, passing each to {@code action} once (lowest first among the dense ones). */
    void drain(IntConsumer action) {
        for (int w = 0; w < bits.length; w++) {
            if ((long) WORD.getVolatile(bits, w) == 0) {
                continue;
            }
            long word = (long) WORD.getAndSet(bits, w, 0L);
            while (word != 0) {
                action.accept(w * Long.SIZE + Long.numberOfTrailingZeros(word));
                word &= word - 1;
            }
        }
        for (Integer fd : sparse) {
            if (sparse.remove(fd)) {
                action.accept(fd);
            }
        }
    }
}
