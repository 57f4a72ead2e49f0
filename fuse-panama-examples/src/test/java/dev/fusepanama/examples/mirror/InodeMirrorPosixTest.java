package dev.fusepanama.examples.mirror;

import dev.fusepanama.testkit.MountTest;
import dev.fusepanama.testkit.PosixSuite;
import dev.fusepanama.testkit.TestMount;
import dev.fusepanama.testkit.Tmpfs;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The POSIX suite against the inode mirror of a fresh directory on a tmpfs, watched, mounted with
 * passthrough as root: every result must equal the kernel's own tmpfs, which is also what the
 * mirror's source is. Unlike the path mirror it answers fstat of a removed file.
 */
@MountTest
class InodeMirrorPosixTest extends PosixSuite {
    private static Path sources;

    @BeforeAll
    static void mountSourceTmpfs() throws Exception {
        sources = Tmpfs.mount("inode-mirror-sources");
    }

    @AfterAll
    static void unmountSourceTmpfs() throws Exception {
        Tmpfs.unmount(sources);
    }

    /** Where each test's source directory is made: a tmpfs of this class's. */
    static Path sources() {
        return sources;
    }

    /**
     * Mounted with passthrough, set-ID bits are cleared by the kernel's FUSE rule, which keeps
     * set-group-ID on a file that is not group-executable ({@link InodeMirrorNoPassthroughPosixTest}
     * runs the mirror that clears them itself).
     */
    @Override
    protected java.util.Set<Feature> unsupported() {
        return java.util.EnumSet.of(Feature.SETGID_CLEARED_OUTSIDE_GROUP);
    }

    @Override
    protected TestMount mountFilesystem() throws Exception {
        Path source = Files.createTempDirectory(sources, "source-");
        Files.setPosixFilePermissions(source, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
        InodeMirror fs = InodeMirror.of(source);
        TestMount m = TestMount.mount(fs, fs.mountOptions().allowOther(true).build());
        fs.watch(m.inodeHandle()); // as the command line mounts it: the kernel caches what the watch covers
        return m;
    }
}
