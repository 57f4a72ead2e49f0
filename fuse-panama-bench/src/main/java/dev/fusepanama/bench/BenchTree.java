package dev.fusepanama.bench;

import java.util.concurrent.ConcurrentHashMap;

/**
 * The bench tree's shape and content, shared by the fuse-panama and jnr-fuse filesystems (and
 * mirrored by native/benchfs.c): which paths exist, their sizes, and the byte pattern o % 251.
 */
final class BenchTree {
    private BenchTree() {}

    static final int FILE_SIZE = 4096;
    static final long DATA_SIZE = 536_870_912L;
    static final int SMALL = 8;
    static final int BIG = 10_000;

    /** Byte o of every file is o % 251; reads copy from here at offset o % 251. */
    static final byte[] PATTERN = new byte[(1 << 20) + 251];

    static {
        for (int i = 0; i < PATTERN.length; i++) PATTERN[i] = (byte) (i % 251);
    }

    static final String[] ROOT = {"small", "big", "data.bin", "w"};
    static final String[] SMALL_NAMES = new String[SMALL];
    static final String[] BIG_NAMES = new String[BIG];

    static {
        for (int i = 0; i < SMALL; i++) SMALL_NAMES[i] = "file-" + i;
        for (int i = 0; i < BIG; i++) BIG_NAMES[i] = String.format("file-%05d", i);
    }

    enum Kind { DIR, SCRATCH_DIR, FILE, DATA, SCRATCH, NONE }

    static Kind kind(String path) {
        switch (path) {
            case "/", "/small", "/big" -> { return Kind.DIR; }
            case "/w" -> { return Kind.SCRATCH_DIR; }
            case "/data.bin" -> { return Kind.DATA; }
            default -> { }
        }
        if (path.startsWith("/small/file-")) return index(path, 12, 1, SMALL) ? Kind.FILE : Kind.NONE;
        if (path.startsWith("/big/file-")) return index(path, 10, 5, BIG) ? Kind.FILE : Kind.NONE;
        if (path.startsWith("/w/") && path.indexOf('/', 3) < 0) return Kind.SCRATCH;
        return Kind.NONE;
    }

    private static boolean index(String path, int from, int digits, int count) {
        if (path.length() != from + digits) return false;
        int v = 0;
        for (int i = from; i < path.length(); i++) {
            char c = path.charAt(i);
            if (c < '0' || c > '9') return false;
            v = v * 10 + (c - '0');
        }
        return v < count;
    }

    static long size(Kind kind) {
        return kind == Kind.DATA ? DATA_SIZE : FILE_SIZE;
    }

    /** The writable scratch directory: names and sizes only, data is discarded. */
    static final class Scratch {
        final ConcurrentHashMap<String, Long> sizes = new ConcurrentHashMap<>();
    }
}
