package dev.fusepanama.examples.mirror;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Run in a child JVM by {@link MirrorFileSystemTest}, without CAP_SYS_ADMIN: prints the
 * containment a mirror of {@code args[0]} gets by default, then what asking for a private
 * mount says.
 */
final class ContainmentProbe {
    private ContainmentProbe() {}

    public static void main(String[] args) throws IOException {
        Path source = Path.of(args[0]);
        try (MirrorFileSystem fs = MirrorFileSystem.zeroCopy(source)) {
            System.out.println("default: " + fs.containment());
        }
        try (MirrorFileSystem fs = MirrorFileSystem.zeroCopy(source, Containment.PRIVATE_MOUNT)) {
            System.out.println("private mount: " + fs.containment());
        } catch (IOException e) {
            System.out.println("private mount refused: " + e.getMessage());
        }
    }
}
