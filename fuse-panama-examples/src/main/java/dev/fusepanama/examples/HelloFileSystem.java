package dev.fusepanama.examples;

import static dev.fusepanama.Posix.S_IFDIR;
import static dev.fusepanama.Posix.S_IFREG;

import dev.fusepanama.DirFiller;
import dev.fusepanama.Errno;
import dev.fusepanama.FileInfo;
import dev.fusepanama.FuseFileSystem;
import dev.fusepanama.Posix;
import dev.fusepanama.Stat;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/** The shortest useful filesystem: one read-only file, {@code /hello}. */
public final class HelloFileSystem implements FuseFileSystem {
    private static final byte[] TEXT = "Hello from fuse-panama!\n".getBytes(StandardCharsets.UTF_8);

    @Override
    public int getattr(String path, Stat stat, FileInfo fi) {
        switch (path) {
            case "/" -> stat.setMode(S_IFDIR | 0755).setNlink(2);
            case "/hello" -> stat.setMode(S_IFREG | 0444).setNlink(1).setSize(TEXT.length);
            default -> { return -Errno.ENOENT; }
        }
        return 0;
    }

    @Override
    public int readdir(String path, DirFiller filler, long offset, FileInfo fi, int flags) {
        filler.add(".");
        filler.add("..");
        filler.add("hello");
        return 0;
    }

    @Override
    public int open(String path, FileInfo fi) {
        if (!path.equals("/hello")) return -Errno.ENOENT;
        return (fi.flags() & Posix.O_ACCMODE) == Posix.O_RDONLY ? 0 : -Errno.EACCES;
    }

    @Override
    public int read(String path, ByteBuffer buffer, long offset, FileInfo fi) {
        if (offset >= TEXT.length) return 0;
        int n = (int) Math.min(buffer.remaining(), TEXT.length - offset);
        buffer.put(TEXT, (int) offset, n);
        return n;
    }
}
