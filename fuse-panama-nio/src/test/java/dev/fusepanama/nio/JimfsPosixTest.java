package dev.fusepanama.nio;

import com.google.common.jimfs.Configuration;
import com.google.common.jimfs.Jimfs;
import dev.fusepanama.testkit.MountTest;
import dev.fusepanama.testkit.PosixSuite;
import dev.fusepanama.testkit.TestMount;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.Set;

/** The POSIX suite against the adapter over jimfs, Google's in-memory NIO filesystem, with its unix, posix and user views. */
@MountTest
class JimfsPosixTest extends PosixSuite {
    private FileSystem jimfs;

    @Override
    protected TestMount mountFilesystem() throws Exception {
        jimfs = Jimfs.newFileSystem(Configuration.unix().toBuilder()
                .setAttributeViews("basic", "owner", "posix", "unix", "user").build());
        Path root = Files.createDirectory(jimfs.getPath("/served"));
        NioFileSystem fs = NioFileSystem.of(root);
        return TestMount.mount(fs, fs.mountOptions().allowOther(true).build());
    }

    @Override
    protected void afterUnmount() throws Exception {
        jimfs.close();
    }

    /**
     * What java.nio.file has no call for (mknod of a FIFO, RENAME_EXCHANGE, fallocate,
     * SEEK_DATA/SEEK_HOLE, names that are not UTF-8), and what jimfs does not keep:
     * sparse files, set-ID bits (its permissions are posix's), owners of this machine (its own
     * principals are numbered by jimfs), so no permission checks for other users either; and
     * Files.createLink of a symbolic link may link its target, so the adapter refuses it (EPERM).
     */
    @Override
    protected Set<Feature> unsupported() {
        return EnumSet.of(Feature.SPECIAL_FILES, Feature.RENAME_FLAGS, Feature.FALLOCATE, Feature.SEEK_HOLES,
                Feature.SPARSE_FILES, Feature.NON_UTF8_NAMES, Feature.PERMISSIONS,
                Feature.SET_ID_BITS, Feature.HARD_LINKS_TO_SYMLINKS);
    }
}
