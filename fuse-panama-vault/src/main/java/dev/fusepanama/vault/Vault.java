package dev.fusepanama.vault;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.fusepanama.Errno;
import dev.fusepanama.FileNames;
import dev.fusepanama.Fuse;
import dev.fusepanama.MountOptions;
import dev.fusepanama.Posix;
import dev.fusepanama.vault.crypto.DirIv;
import dev.fusepanama.vault.crypto.MasterKey;
import dev.fusepanama.vault.crypto.VaultConfig;
import dev.fusepanama.vault.crypto.WrongPasswordException;
import dev.fusepanama.inode.InodeMount;
import dev.fusepanama.libc.Libc;
import dev.fusepanama.libc.Scratch;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;

/**
 * Creating and unlocking gocryptfs vaults (format 2, with gocryptfs 2's default feature flags):
 * a cipher directory holding {@code gocryptfs.conf} (the master key, encrypted with a key
 * derived from the password by scrypt) and {@code gocryptfs.diriv}, with every file's name and
 * contents encrypted beneath it.
 */
public final class Vault {
    private Vault() {}

    /** scrypt's cost, log2 N, for a new vault: gocryptfs's default (N = 65536, about 0.2 s and 64 MiB). */
    public static final int DEFAULT_SCRYPT_LOG_N = 16;

    /**
     * Makes {@code cipherDir} (empty, created if missing) a new vault protected by {@code password}.
     * A directory is made only once the password and cost are taken.
     *
     * @param cipherDir the cipher directory: missing, or an empty directory
     * @param password the password, which the caller wipes
     * @param scryptLogN scrypt's cost, log2 N: {@link #DEFAULT_SCRYPT_LOG_N} unless there is a reason
     * @throws IOException if the directory is not empty or cannot be written
     * @throws IllegalArgumentException for an empty password or a scrypt cost that cannot be had ({@link VaultConfig#create})
     */
    public static void create(Path cipherDir, char[] password, int scryptLogN) throws IOException {
        if (Files.exists(cipherDir, LinkOption.NOFOLLOW_LINKS)) {
            checkEmpty(cipherDir);
        }
        try (VaultConfig.Created created = VaultConfig.create(password, scryptLogN)) {
            Files.createDirectories(cipherDir);
            checkEmpty(cipherDir);
            DirIv.create(cipherDir);
            created.config().write(cipherDir.resolve(VaultConfig.FILE_NAME));
        }
    }

    private static void checkEmpty(Path cipherDir) throws IOException {
        if (!Files.isDirectory(cipherDir)) {
            throw new IOException("cannot create a vault in " + cipherDir + ": it is not a directory");
        }
        try (var entries = Files.list(cipherDir)) {
            if (entries.findAny().isPresent()) {
                throw new IOException("cannot create a vault in " + cipherDir + ": the directory is not empty");
            }
        }
    }

    /**
     * Unlocks the vault in {@code cipherDir} with {@code password}: a filesystem to mount, which
     * holds the master key and a descriptor of the cipher directory until it is closed. Costs one
     * scrypt run at the vault's cost.
     *
     * @param cipherDir the cipher directory, holding {@code gocryptfs.conf} and {@code gocryptfs.diriv}
     * @param password the password, which the caller wipes
     * @return the filesystem, to {@link #mount}
     * @throws WrongPasswordException if the password does not decrypt the master key
     * @throws IOException if {@code cipherDir} is not a vault this library can open, or cannot be
     *     opened (the message says why)
     */
    public static VaultFileSystem unlock(Path cipherDir, char[] password) throws IOException, WrongPasswordException {
        Path conf = cipherDir.resolve("gocryptfs.conf");
        if (!Files.isRegularFile(conf, LinkOption.NOFOLLOW_LINKS)) {
            throw new IOException(cipherDir + " is not a gocryptfs vault: it has no gocryptfs.conf");
        }
        if (!Files.isRegularFile(cipherDir.resolve("gocryptfs.diriv"), LinkOption.NOFOLLOW_LINKS)) {
            throw new IOException(cipherDir + " is not a usable vault: its top directory has no gocryptfs.diriv");
        }
        VaultConfig config = VaultConfig.read(conf);
        MasterKey key = config.unlock(password);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment path = arena.allocate(Scratch.PATH_MAX);
            if (FileNames.toNative(cipherDir.toAbsolutePath().toString(), path) < 0) {
                throw new IOException("cipher directory path too long: " + cipherDir);
            }
            int fd = Libc.openat(Libc.AT_FDCWD, path, Posix.O_PATH | Posix.O_DIRECTORY | Posix.O_CLOEXEC, 0);
            if (fd < 0) {
                key.close();
                throw new IOException("cannot open the cipher directory " + cipherDir + ": " + Errno.name(-fd));
            }
            MemorySegment stat = arena.allocate(256, 8);
            int rc = Libc.fstat(fd, stat);
            if (rc < 0) {
                Libc.close(fd);
                key.close();
                throw new IOException("cannot stat the cipher directory " + cipherDir + ": " + Errno.name(-rc));
            }
            // st_ino is at offset 8 in struct stat on x86-64 and AArch64 alike.
            long ino = stat.get(JAVA_LONG, 8);
            return new VaultFileSystem(cipherDir.toAbsolutePath().toString(), fd, ino, key);
        }
    }

    /**
     * Mounts the unlocked vault {@code fs} at {@code mountpoint} and starts watching its cipher
     * directory, so that changes other programs make there (a sync client) are seen through the
     * mount at once. Closing the mount wipes the key.
     *
     * @param fs the vault, from {@link #unlock}
     * @param mountpoint an existing empty directory
     * @param options the mount's options, normally {@link #mountOptions(Path)}'s
     * @return the mount
     * @throws IOException if it cannot be mounted ({@link dev.fusepanama.MountException} says why),
     *     or the watch cannot start (the mount is closed again)
     */
    public static InodeMount mount(VaultFileSystem fs, Path mountpoint, MountOptions options) throws IOException {
        InodeMount mount = Fuse.mount(fs, mountpoint, options);
        try {
            fs.watch(mount);
        } catch (IOException | RuntimeException e) {
            mount.close();
            throw e;
        }
        return mount;
    }

    /**
     * The options a vault is mounted with: the kernel checks permissions from the modes
     * ({@code default_permissions}), reads ahead up to 1 MiB, the largest request libfuse takes
     * (as root: a third more cold sequential throughput than the kernel's 128 KiB), and
     * {@code /proc/mounts} shows the cipher directory as the source and {@code fuse.vault} as the type.
     *
     * @param cipherDir the cipher directory (a comma in its path is shown as {@code _})
     * @return a builder with these set, to add to and build
     */
    public static MountOptions.Builder mountOptions(Path cipherDir) {
        return MountOptions.builder().defaultPermissions(true).maxReadahead(MountOptions.MAX_WRITE_LIMIT)
                .fsName(cipherDir.toAbsolutePath().toString().replace(",", "_")).subtype("vault");
    }
}
