package dev.fusepanama.examples.mirror;

import dev.fusepanama.testkit.PosixSuite;
import dev.fusepanama.testkit.TestMount;
import dev.fusepanama.testkit.Tmpfs;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The POSIX suite against the mirror of a fresh directory on a tmpfs, mounted as the launcher
 * mounts it as root (zero-copy, in a private mount of the source): every result must equal the
 * kernel's own tmpfs, which is also what the mirror's source is. {@link MirrorFileSystemOpenat2PosixTest} runs it again
 * with the containment a process without CAP_SYS_ADMIN gets.
 */
class MirrorFileSystemPosixTest extends PosixSuite {
    private static Path sources;

    private static boolean xattrAt;

    @BeforeAll
    static void mountSourceTmpfs() throws Exception {
        sources = Tmpfs.mount("mirror-sources");
        try (MirrorFileSystem probe = MirrorFileSystem.of(sources)) {
            xattrAt = probe.source().xattrAt();
        }
    }

    @AfterAll
    static void unmountSourceTmpfs() throws Exception {
        Tmpfs.unmount(sources);
    }

    protected Containment containment() {
        return Containment.PRIVATE_MOUNT;
    }

    /**
     * The mirror is a path filesystem: libfuse's high-level API cannot answer fstat of a removed
     * file. Where getxattrat is missing (Linux before 6.13, or qemu-user), the private mount names
     * a file's extended attributes by a /proc path, which passes PATH_MAX for a path near it.
     * Writes reach the source as the mirror's process, so set-ID bits are cleared by the kernel's
     * FUSE rule, which keeps set-group-ID on a file that is not group-executable.
     */
    @Override
    protected java.util.Set<Feature> unsupported() {
        java.util.Set<Feature> unsupported = java.util.EnumSet.of(Feature.FSTAT_OF_REMOVED_FILES,
                Feature.SETGID_CLEARED_OUTSIDE_GROUP);
        if (containment() == Containment.PRIVATE_MOUNT && !xattrAt) unsupported.add(Feature.XATTRS_NEAR_PATH_MAX);
        return unsupported;
    }

    @Override
    protected TestMount mountFilesystem() throws Exception {
        Path source = Files.createTempDirectory(sources, "source-");
        Files.setPosixFilePermissions(source, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
        MirrorFileSystem fs = MirrorFileSystem.zeroCopy(source, containment());
        return TestMount.mount(fs, fs.mountOptions().allowOther(true).build());
    }
}
