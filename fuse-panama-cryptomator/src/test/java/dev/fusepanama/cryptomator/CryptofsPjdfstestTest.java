package dev.fusepanama.cryptomator;

import dev.fusepanama.nio.NioFileSystem;
import dev.fusepanama.testkit.MountTest;
import dev.fusepanama.testkit.PjdfstestSuite;
import dev.fusepanama.testkit.TestMount;
import dev.fusepanama.testkit.Tmpfs;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;

/** pjdfstest through the NIO adapter inside a real Cryptomator vault (cryptofs 2.9.0) on a fresh tmpfs. */
@MountTest
class CryptofsPjdfstestTest extends PjdfstestSuite {
    private static Path tmpfs;
    private FileSystem cryptofs;

    @BeforeAll
    static void mountTmpfs() throws Exception {
        // open::interact_2gb writes 4 bytes 2 GiB into a new file: cryptofs has no sparse files
        // and stores the gap as encrypted zeros, so its store needs that much room.
        tmpfs = Tmpfs.mount("cryptofs-pjdfstest", 3 * 1024);
    }

    @AfterAll
    static void unmountTmpfs() throws Exception {
        Tmpfs.unmount(tmpfs);
    }

    @Override
    protected TestMount mountFilesystem() throws Exception {
        Path vault = Files.createDirectory(tmpfs.resolve("vault"));
        Vaults.create(vault, "pjdfstest");
        cryptofs = Vaults.open(vault, "pjdfstest", false);
        NioFileSystem fs = NioFileSystem.of(cryptofs.getPath("/"));
        return TestMount.mount(fs, fs.mountOptions().allowOther(true).build());
    }

    @AfterEach
    void closeVault() throws Exception {
        if (cryptofs != null) cryptofs.close();
    }

    /** What java.nio.file and cryptofs lack, each test with the reason (all answered as a kernel filesystem without it). */
    @Override
    protected Map<String, String> knownFailures() {
        Map<String, String> known = new TreeMap<>();
        String special = "java.nio.file makes no FIFOs, sockets or device nodes: mknod answers EPERM";
        for (String t : List.of("*::fifo", "*::socket", "*::block", "*::char", "mkfifo::*", "mknod::*",
                "open::fifo_nonblock_wronly", "open::socket_error")) {
            known.put(t, special);
        }
        String links = "cryptofs has no hard links: link(2) answers EPERM, which these tests need first";
        for (String t : List.of("link::changed_ctime_success::regular", "link::share_metadata::regular",
                "link::remove_link::regular", "unlink::unchanged_ctime_failed::regular",
                "unlink::update_ctime_success::regular", "rename::preserve_metadata::regular",
                "rename::to_multiply_linked::regular")) {
            known.put(t, links);
        }
        known.put("rename::updates_link_parent", "cryptofs counts no links: a directory's link count is 1 ('not counted')");
        String owners = "cryptofs keeps no owners: every file is the mounting user's";
        known.put("open::uid_gid_eq_euid_egid", owners);
        known.put("mkdir::uid_gid_eq_euid_egid", owners);
        known.put("chmod::clear_isgid_bit", "cryptofs's posix permissions have no set-ID bits");
        return known;
    }
}
