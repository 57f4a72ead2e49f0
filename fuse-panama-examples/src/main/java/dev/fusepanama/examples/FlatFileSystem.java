package dev.fusepanama.examples;

import static dev.fusepanama.Posix.O_TRUNC;
import static dev.fusepanama.Posix.S_IFDIR;
import static dev.fusepanama.Posix.S_IFREG;

import dev.fusepanama.DirFiller;
import dev.fusepanama.Errno;
import dev.fusepanama.FileInfo;
import dev.fusepanama.FuseFileSystem;
import dev.fusepanama.Stat;
import dev.fusepanama.Timespec;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.concurrent.ConcurrentHashMap;

/** One writable directory of in-memory files: the README's embedding example, in full. */
public final class FlatFileSystem implements FuseFileSystem {
    private final ConcurrentHashMap<String, byte[]> files = new ConcurrentHashMap<>();

    @Override
    public int getattr(String path, Stat stat, FileInfo fi) {
        if (path.equals("/")) {
            stat.setMode(S_IFDIR | 0755).setNlink(2);
            return 0;
        }
        byte[] data = files.get(path);
        if (data == null) return -Errno.ENOENT;
        stat.setMode(S_IFREG | 0644).setNlink(1).setSize(data.length);
        return 0;
    }

    @Override
    public int readdir(String path, DirFiller filler, long offset, FileInfo fi, int flags) {
        filler.add(".");
        filler.add("..");
        files.keySet().forEach(name -> filler.add(name.substring(1)));
        return 0;
    }

    @Override
    public int create(String path, int mode, FileInfo fi) {
        files.putIfAbsent(path, new byte[0]);
        return 0;
    }

    @Override
    public int open(String path, FileInfo fi) {
        if ((fi.flags() & O_TRUNC) != 0) files.computeIfPresent(path, (p, old) -> new byte[0]);
        return files.containsKey(path) ? 0 : -Errno.ENOENT;
    }

    @Override
    public int read(String path, ByteBuffer buffer, long offset, FileInfo fi) {
        byte[] data = files.get(path);
        if (data == null) return -Errno.ENOENT;
        if (offset >= data.length) return 0;
        int n = (int) Math.min(buffer.remaining(), data.length - offset);
        buffer.put(data, (int) offset, n);
        return n;
    }

    @Override
    public int write(String path, ByteBuffer buffer, long offset, FileInfo fi) {
        int n = buffer.remaining();
        files.compute(path, (p, old) -> {
            byte[] data = Arrays.copyOf(old == null ? new byte[0] : old, (int) Math.max(old == null ? 0 : old.length, offset + n));
            buffer.get(data, (int) offset, n);
            return data;
        });
        return n;
    }

    @Override
    public int truncate(String path, long size, FileInfo fi) {
        return files.computeIfPresent(path, (p, old) -> Arrays.copyOf(old, (int) size)) == null ? -Errno.ENOENT : 0;
    }

    @Override
    public int rename(String from, String to, int flags) {
        if (flags != 0) return -Errno.EINVAL;
        byte[] data = files.remove(from);
        if (data == null) return -Errno.ENOENT;
        files.put(to, data);
        return 0;
    }

    @Override
    public int unlink(String path) {
        return files.remove(path) == null ? -Errno.ENOENT : 0;
    }

    @Override
    public int utimens(String path, Timespec atime, Timespec mtime, FileInfo fi) {
        return files.containsKey(path) ? 0 : -Errno.ENOENT; // times are not kept: touch still works
    }
}
