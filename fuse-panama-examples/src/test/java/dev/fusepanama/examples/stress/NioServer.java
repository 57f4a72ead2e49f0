package dev.fusepanama.examples.stress;

import dev.fusepanama.examples.Foreground;
import dev.fusepanama.inode.InodeMount;
import dev.fusepanama.nio.NioFileSystem;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves a directory through the NIO adapter (its default filesystem provider) until SIGTERM, as
 * the launcher's commands serve theirs: {@code NioServer SOURCE_DIR MOUNTPOINT}.
 */
public final class NioServer {
    private static final Logger LOG = LoggerFactory.getLogger(NioServer.class);

    private NioServer() {}

    public static void main(String[] args) throws Exception {
        NioFileSystem fs = NioFileSystem.of(Path.of(args[0]));
        InodeMount mount = fs.mount(Path.of(args[1]), fs.mountOptions().build());
        System.exit(Foreground.serve(mount, LOG, () -> LOG.info("nio mounted {} at {}", args[0], args[1])));
    }
}
