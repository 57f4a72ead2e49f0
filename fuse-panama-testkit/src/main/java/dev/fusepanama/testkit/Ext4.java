package dev.fusepanama.testkit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A fresh ext4 of the test's own, on a loop device over an image in {@code /dev/shm} (needs root
 * and e2fsprogs): a backing store that behaves as most users' disks do where tmpfs does not. ext4
 * gives a deleted file's inode number to the next file made, at once (tmpfs never does), and its
 * small size runs full as a real disk does.
 */
public final class Ext4 {
    private Ext4() {}

    /**
     * A new ext4, root mode 0755 and owned by root, with no {@code lost+found}, at a new temporary
     * directory named after {@code name}. The image is deleted at once: the loop device keeps it
     * until the unmount.
     *
     * @param name the start of the directory's and the image's names
     * @param mib its size in MiB, taken from /dev/shm's memory as it fills
     * @return the directory, to {@link #unmount} when done
     * @throws IOException if it cannot be made or mounted (it needs root and e2fsprogs); the directory is removed again
     * @throws InterruptedException if interrupted while {@code mkfs.ext4} or {@code mount} runs
     */
    public static Path mount(String name, int mib) throws IOException, InterruptedException {
        Path image = Files.createTempFile(Path.of("/dev/shm"), name + "-", ".ext4");
        Path dir = Files.createTempDirectory(name + "-");
        String out = Commands.run(List.of("truncate", "-s", mib + "M", image.toString()));
        if (out == null) out = Commands.run(List.of("mkfs.ext4", "-q", "-F", "-E", "root_owner=0:0", image.toString()));
        if (out == null) out = Commands.run(List.of("mount", "-o", "loop", image.toString(), dir.toString()));
        Files.deleteIfExists(image); // the loop device keeps it while mounted
        if (out != null) {
            Files.deleteIfExists(dir);
            throw new IOException("cannot mount an ext4 at " + dir + " (it needs root and e2fsprogs): " + out);
        }
        out = Commands.run(List.of("rmdir", dir.resolve("lost+found").toString()));
        if (out != null) {
            unmount(dir);
            throw new IOException(out);
        }
        return dir;
    }

    /**
     * Unmounts {@code dir} (its loop device goes with it) and removes it; detaches it lazily if busy, and throws.
     *
     * @param dir what {@link #mount} returned
     * @throws IOException if the filesystem was busy (it is detached all the same), or the directory cannot be removed
     * @throws InterruptedException if interrupted while {@code umount} runs
     */
    public static void unmount(Path dir) throws IOException, InterruptedException {
        String busy = Commands.run(List.of("umount", "-d", dir.toString()));
        if (busy != null) {
            Commands.run(List.of("umount", "-l", "-d", dir.toString()));
            throw new IOException("the ext4 at " + dir + " was still in use; detached: " + busy);
        }
        Files.deleteIfExists(dir);
    }
}
