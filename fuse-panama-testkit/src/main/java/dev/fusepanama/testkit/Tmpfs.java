package dev.fusepanama.testkit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A kernel tmpfs of the test's own (needs root): the reference the POSIX suite compares with, and
 * a source directory for pass-through filesystems that behaves as tmpfs does, whatever the
 * machine's /tmp is.
 */
public final class Tmpfs {
    private Tmpfs() {}

    /**
     * A fresh 512 MiB tmpfs, root mode 0755, at a new temporary directory named after {@code name}.
     *
     * @param name the start of the directory's name, and the tmpfs's source in the mount table
     * @return the directory, to {@link #unmount} when done
     * @throws IOException if it cannot be mounted (not root); the directory is removed again
     * @throws InterruptedException if interrupted while {@code mount} runs
     */
    public static Path mount(String name) throws IOException, InterruptedException {
        return mount(name, 512);
    }

    /**
     * A fresh tmpfs, root mode 0755, at a new temporary directory named after {@code name}.
     *
     * @param name the start of the directory's name, and the tmpfs's source in the mount table
     * @param mib its size in MiB, taken from memory only as files fill it
     * @return the directory, to {@link #unmount} when done
     * @throws IOException if it cannot be mounted (not root); the directory is removed again
     * @throws InterruptedException if interrupted while {@code mount} runs
     */
    public static Path mount(String name, int mib) throws IOException, InterruptedException {
        Path dir = Files.createTempDirectory(name + "-");
        String out = Commands.run(List.of("mount", "-t", "tmpfs", "-o", "size=" + mib + "m,mode=0755", name, dir.toString()));
        if (out != null) {
            Files.deleteIfExists(dir);
            throw new IOException("cannot mount a tmpfs at " + dir + " (it needs root): " + out);
        }
        return dir;
    }

    /**
     * Unmounts {@code dir} and removes it. If something still holds the tmpfs, detaches it lazily
     * (nothing is left mounted) and throws.
     *
     * @param dir what {@link #mount} returned
     * @throws IOException if the tmpfs was busy (it is detached all the same), or the directory cannot be removed
     * @throws InterruptedException if interrupted while {@code umount} runs
     */
    public static void unmount(Path dir) throws IOException, InterruptedException {
        String busy = Commands.run(List.of("umount", dir.toString()));
        if (busy != null) {
            Commands.run(List.of("umount", "-l", dir.toString()));
            throw new IOException("the tmpfs at " + dir + " was still in use; detached: " + busy);
        }
        Files.deleteIfExists(dir);
    }
}
