package dev.fusepanama.cryptomator;

import dev.fusepanama.nio.NioFileSystem;
import dev.fusepanama.testkit.MountTest;
import dev.fusepanama.testkit.PosixSuite;
import dev.fusepanama.testkit.TestMount;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.Set;

/** The POSIX suite through the NIO adapter over a real Cryptomator vault (cryptofs 2.9.0) in a temporary directory. */
@MountTest
class CryptofsPosixTest extends PosixSuite {
    private Path vault;
    private FileSystem cryptofs;

    @Override
    protected TestMount mountFilesystem() throws Exception {
        vault = Files.createTempDirectory("cryptofs-posix-");
        Vaults.create(vault, "posix");
        cryptofs = Vaults.open(vault, "posix", false);
        NioFileSystem fs = NioFileSystem.of(cryptofs.getPath("/"));
        return TestMount.mount(fs, fs.mountOptions().allowOther(true).build());
    }

    @Override
    protected void afterUnmount() throws Exception {
        if (cryptofs != null) cryptofs.close();
        if (vault != null) {
            try (var walk = Files.walk(vault)) {
                for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) Files.delete(p);
            }
        }
    }

    /**
     * What java.nio.file has no call for (special files, RENAME_EXCHANGE, fallocate,
     * SEEK_DATA/SEEK_HOLE, names that are not UTF-8), and what cryptofs does not keep: hard links
     * (link answers EPERM, as on a filesystem without them), extended attributes (EOPNOTSUPP),
     * owners (every file is the mounting user's, so there are no permission checks for others to
     * pass or fail), set-ID bits, sparse files, link counts of directories.
     */
    @Override
    protected Set<Feature> unsupported() {
        return EnumSet.of(Feature.SPECIAL_FILES, Feature.RENAME_FLAGS, Feature.FALLOCATE, Feature.SEEK_HOLES,
                Feature.SPARSE_FILES, Feature.NON_UTF8_NAMES, Feature.SET_ID_BITS, Feature.HARD_LINKS,
                Feature.HARD_LINKS_TO_SYMLINKS, Feature.XATTRS, Feature.XATTRS_NEAR_PATH_MAX, Feature.PERMISSIONS,
                Feature.DIRECTORY_LINK_COUNTS);
    }
}
