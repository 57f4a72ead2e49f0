package dev.fusepanama.examples.mirror;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.fusepanama.testkit.MountTest;
import dev.fusepanama.testkit.TestMount;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;

/**
 * The POSIX suite against the watched mirror without kernel passthrough, on libfuse 3.17+ (the
 * version matrix's rows): there the mirror reads and writes every file itself and clears set-ID
 * bits by a local filesystem's rule (HANDLE_KILLPRIV_V2), where the kernel's FUSE rule keeps
 * set-group-ID on a file that is not group-executable. On older releases it would be
 * {@link InodeMirrorPosixTest} again: without passthrough there, that one runs the same mirror.
 */
@MountTest
class InodeMirrorNoPassthroughPosixTest extends InodeMirrorPosixTest {
    @BeforeAll
    static void onlyWhereItDiffers() throws Exception {
        assumeTrue(TestMount.libfuseAtLeast(3, 17), "libfuse before 3.17 has neither passthrough nor HANDLE_KILLPRIV_V2");
    }

    @Override
    protected Set<Feature> unsupported() {
        return EnumSet.noneOf(Feature.class);
    }

    @Override
    protected TestMount mountFilesystem() throws Exception {
        Path source = Files.createTempDirectory(sources(), "source-");
        Files.setPosixFilePermissions(source, PosixFilePermissions.fromString("rwxr-xr-x"));
        InodeMirror fs = InodeMirror.builder(source).build();
        TestMount m = TestMount.mount(fs, fs.mountOptions().allowOther(true).build());
        fs.watch(m.inodeHandle());
        return m;
    }
}
