package dev.fusepanama.internal;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The caller's supplementary groups as libfuse reads them from {@code /proc}, one way for both
 * APIs ({@code fuse_getgroups} for the path API, {@code fuse_req_getgroups} for the inode API):
 * a buffer of 32 grown to what libfuse reports, never past Linux's {@code NGROUPS_MAX}.
 */
public final class CallerGroups {
    private CallerGroups() {}

    /** Linux's limit on supplementary groups (include/uapi/linux/limits.h: NGROUPS_MAX). */
    private static final int MAX = 65536;
    private static final int[] NONE = new int[0];

    /** libfuse's call: stores up to {@code size} groups at {@code address}; returns how many there are, or -errno. */
    @FunctionalInterface
    public interface Call {
        int get(int size, long address) throws Throwable;
    }

    /** The groups {@code call} reports; empty where libfuse cannot read them (the caller is gone, no {@code /proc}). */
    public static int[] read(Call call) {
        try (Arena arena = Arena.ofConfined()) {
            int size = 32;
            while (true) {
                MemorySegment list = arena.allocate(ValueLayout.JAVA_INT, size);
                int n = call.get(size, list.address());
                if (n < 0 || n > MAX) {
                    return NONE;
                }
                if (n <= size) {
                    return list.asSlice(0, 4L * n).toArray(ValueLayout.JAVA_INT);
                }
                size = n;
            }
        } catch (Throwable t) {
            return NONE;
        }
    }
}
