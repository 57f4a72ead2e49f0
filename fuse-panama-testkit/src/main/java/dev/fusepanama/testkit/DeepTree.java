package dev.fusepanama.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fusepanama.Posix;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * A chain of directories below {@code top}, each made and opened ({@code O_PATH}) through a
 * descriptor of its parent ({@code /proc/self/fd/N/NAME}), so that the deepest one can be longer
 * from the top than one path string may be. Used to reach paths near PATH_MAX.
 */
final class DeepTree {
    private final String dirName;
    private final int[] dirs;

    DeepTree(Path top, int levels, String dirName) {
        this.dirName = dirName;
        this.dirs = new int[levels + 1];
        dirs[0] = Os.open(Os.bytes(top), Posix.O_PATH | Posix.O_DIRECTORY, 0);
        for (int i = 1; i < dirs.length; i++) {
            byte[] next = inDescriptor(dirs[i - 1], dirName);
            assertEquals(0, Os.mkdir(next, 0755), "mkdir level " + i);
            dirs[i] = Os.open(next, Posix.O_PATH | Posix.O_DIRECTORY, 0);
            assertTrue(dirs[i] >= 0, "open level " + i + ": " + dirs[i]);
        }
    }

    /** {@code name} in the deepest directory, as a path through its descriptor. */
    byte[] inDeepest(String name) {
        return inDescriptor(dirs[dirs.length - 1], name);
    }

    /** Removes the (by then empty) directories from the deepest up and closes the descriptors; whether every rmdir succeeded. */
    boolean remove() {
        boolean all = true;
        for (int i = dirs.length - 1; i > 0; i--) {
            Os.close(dirs[i]);
            all &= Os.rmdir(inDescriptor(dirs[i - 1], dirName)) == 0;
        }
        Os.close(dirs[0]);
        return all;
    }

    private static byte[] inDescriptor(int fd, String name) {
        return ("/proc/self/fd/" + fd + "/" + name).getBytes(StandardCharsets.US_ASCII);
    }
}
