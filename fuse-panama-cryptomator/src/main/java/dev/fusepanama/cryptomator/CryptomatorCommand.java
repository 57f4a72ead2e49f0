package dev.fusepanama.cryptomator;

import java.io.Console;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystem;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import org.cryptomator.cryptofs.CryptoFileSystemProperties;
import org.cryptomator.cryptofs.CryptoFileSystemProvider;
import org.cryptomator.cryptofs.DirStructure;
import org.cryptomator.cryptolib.api.CryptorProvider;
import org.cryptomator.cryptolib.api.InvalidPassphraseException;
import org.cryptomator.cryptolib.api.Masterkey;
import org.cryptomator.cryptolib.api.MasterkeyLoader;
import org.cryptomator.cryptolib.api.MasterkeyLoadingFailedException;
import org.cryptomator.cryptolib.common.MasterkeyFileAccess;
import org.cryptomator.integrations.mount.Mount;
import org.cryptomator.integrations.mount.MountFailedException;
import org.cryptomator.integrations.mount.UnmountFailedException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import sun.misc.Signal;

/**
 * {@code fuse-panama cryptomator VAULT_DIR [MOUNTPOINT]}: unlocks a vault the Cryptomator
 * application made (vault format 8: {@code vault.cryptomator} and its scrypt-protected
 * {@code masterkey.cryptomator}, read with cryptolib's own masterkey-file support) and mounts it
 * through {@link FusePanamaMountService}, as Cryptomator would, until Ctrl-C, SIGTERM or an
 * unmount from outside. The password comes from the terminal (not echoed) or from the first line
 * of {@code --passfile FILE}. Exit status 2, with one line, before anything is mounted, for a
 * wrong password, a directory that is no vault, a password file it cannot read, or bad options.
 */
public final class CryptomatorCommand {
    private static final Logger LOG = LoggerFactory.getLogger("fuse-panama");
    private static final String USAGE = """
            usage: fuse-panama cryptomator VAULT_DIR [MOUNTPOINT] [--passfile FILE] [--read-only] [-o OPTION[,OPTION...]]...
                   fuse-panama cryptomator init VAULT_DIR [--passfile FILE]
              Unlocks a Cryptomator vault (format 8) and mounts it (default mountpoint /tmp/fuse-panama/cryptomator,
              made if missing and removed at the end). -o takes the mount flags Cryptomator's settings take:
              FUSE's own mount options and uid=, gid=, umask=, attr_timeout=, entry_timeout=,
              negative_timeout= (default: auto_unmount, timeouts 1 s).
              init makes a new vault in an empty or missing directory, as the Cryptomator application makes one.""";
    /** Where a vault's key is, as the Cryptomator application writes it into vault.cryptomator. */
    static final URI KEY_ID = URI.create("masterkeyfile:masterkey.cryptomator");

    private CryptomatorCommand() {}

    public static void main(String[] args) throws Exception {
        System.exit(run(args));
    }

    static int run(String[] args) throws Exception {
        List<String> positional = new ArrayList<>();
        List<String> options = new ArrayList<>();
        Path passfile = null;
        boolean readOnly = false;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "-h", "--help" -> {
                    LOG.info("{}", USAGE);
                    return 0;
                }
                case "--read-only" -> readOnly = true;
                case "--passfile", "-o" -> {
                    if (i + 1 == args.length) return usage(args[i] + " needs a value");
                    if (args[i].equals("-o")) {
                        options.add("-o " + args[++i]);
                    } else if (args[++i].isEmpty()) {
                        return usage("--passfile needs a file: '' is an empty path");
                    } else {
                        passfile = Path.of(args[i]);
                    }
                }
                default -> {
                    if (args[i].startsWith("-")) return usage("unknown option " + args[i]);
                    positional.add(args[i]);
                }
            }
        }
        boolean init = !positional.isEmpty() && positional.get(0).equals("init");
        for (int i = init ? 1 : 0; i < positional.size(); i++) {
            if (positional.get(i).isEmpty()) return usage((i == (init ? 1 : 0) ? "VAULT_DIR" : "MOUNTPOINT") + " '' is an empty path");
        }
        if (init) {
            if (positional.size() != 2 || readOnly || !options.isEmpty()) return usage("init takes VAULT_DIR and --passfile only");
            return init(Path.of(positional.get(1)).toAbsolutePath(), passfile);
        }
        if (positional.isEmpty() || positional.size() > 2) return usage("give VAULT_DIR and, optionally, MOUNTPOINT");
        Path vault = Path.of(positional.get(0)).toAbsolutePath();
        Path mountpoint = Path.of(positional.size() > 1 ? positional.get(1) : "/tmp/fuse-panama/cryptomator").toAbsolutePath();
        String flags = options.isEmpty() ? MountFlags.DEFAULTS : String.join(" ", options);
        try {
            MountFlags.parse(flags);
        } catch (MountFailedException e) {
            return usage(e.getMessage());
        }

        if (!Files.isDirectory(vault)
                || CryptoFileSystemProvider.checkDirStructureForVault(vault, "vault.cryptomator", "masterkey.cryptomator") != DirStructure.VAULT) {
            LOG.error("cryptomator: {} is not a Cryptomator vault (it needs vault.cryptomator and its d directory)", vault);
            return 2;
        }
        char[] password = password(passfile);
        if (password == null) return 2;
        MasterkeyFileAccess keys = new MasterkeyFileAccess(new byte[0], new SecureRandom());
        MasterkeyLoader loader = keyId -> {
            if (!"masterkeyfile".equals(keyId.getScheme())) {
                throw new MasterkeyLoadingFailedException("the vault's key is not in a masterkey file: " + keyId);
            }
            return keys.load(vault.resolve(keyId.getSchemeSpecificPart()), String.valueOf(password));
        };
        FileSystem cryptofs;
        try {
            loader.loadKey(KEY_ID).destroy(); // a wrong password is told before anything else
            var properties = CryptoFileSystemProperties.cryptoFileSystemProperties().withKeyLoader(loader);
            if (readOnly) properties.withFlags(CryptoFileSystemProperties.FileSystemFlags.READONLY);
            cryptofs = CryptoFileSystemProvider.newFileSystem(vault, properties.build());
        } catch (InvalidPassphraseException e) {
            LOG.error("cryptomator: wrong password for {}", vault);
            return 2;
        } catch (MasterkeyLoadingFailedException | IOException e) {
            LOG.error("cryptomator: cannot unlock {}: {}", vault, e.getMessage());
            return 2;
        } finally {
            Arrays.fill(password, '\0');
        }
        try (cryptofs) {
            boolean made = !Files.exists(mountpoint);
            if (made) {
                try {
                    Files.createDirectories(mountpoint);
                } catch (IOException e) {
                    LOG.error("cryptomator: cannot create the mountpoint {}: {}", mountpoint, reason(e));
                    return 2;
                }
            }
            try {
                return serve(cryptofs, vault, mountpoint, flags, readOnly);
            } finally {
                if (made) Files.deleteIfExists(mountpoint);
            }
        }
    }

    /** Makes a vault in {@code dir} (empty or missing): a masterkey file under the password, then cryptofs's structure. */
    private static int init(Path dir, Path passfile) throws IOException {
        if (Files.exists(dir)) {
            boolean empty;
            try (var entries = Files.isDirectory(dir) ? Files.list(dir) : null) {
                empty = entries != null && entries.findAny().isEmpty();
            } catch (IOException e) {
                LOG.error("cryptomator init: {} cannot be listed: {}", dir, reason(e));
                return 2;
            }
            if (!empty) {
                LOG.error("cryptomator init: {} is not an empty directory", dir);
                return 2;
            }
        }
        char[] password = password(passfile);
        if (password == null) return 2;
        SecureRandom random = new SecureRandom();
        MasterkeyFileAccess keys = new MasterkeyFileAccess(new byte[0], random);
        try (Masterkey key = Masterkey.generate(random)) {
            Files.createDirectories(dir);
            keys.persist(key, dir.resolve(KEY_ID.getSchemeSpecificPart()), String.valueOf(password));
            CryptoFileSystemProvider.initialize(dir, CryptoFileSystemProperties.cryptoFileSystemProperties()
                    .withCipherCombo(CryptorProvider.Scheme.SIV_GCM).withKeyLoader(keyId -> key.copy()).build(), KEY_ID);
        } catch (IOException e) {
            LOG.error("cryptomator init: cannot make a vault in {}: {}", dir, reason(e));
            return 2;
        } finally {
            Arrays.fill(password, '\0');
        }
        LOG.info("cryptomator init: made a vault in {}; mount it with: fuse-panama cryptomator {} MOUNTPOINT", dir, dir);
        return 0;
    }

    private static int serve(FileSystem cryptofs, Path vault, Path mountpoint, String flags, boolean readOnly) throws Exception {
        Mount mount;
        try {
            mount = new FusePanamaMountService().forFileSystem(cryptofs.getPath("/")).setMountpoint(mountpoint)
                    .setMountFlags(flags).setReadOnly(readOnly).setVolumeName(vault.getFileName().toString())
                    .setFileSystemName("cryptomator").mount();
        } catch (MountFailedException | IllegalArgumentException e) {
            LOG.error("cryptomator: {}", e.getMessage());
            return 2;
        }
        FusePanamaMountService.FuseMountHandle handle = (FusePanamaMountService.FuseMountHandle) mount;
        CountDownLatch stop = new CountDownLatch(1);
        Signal.handle(new Signal("INT"), s -> stop.countDown());
        Signal.handle(new Signal("TERM"), s -> stop.countDown());
        // Only now: whoever waits for this line may stop the mount with Ctrl-C or SIGTERM.
        LOG.info("cryptomator: {} mounted at {}; stop with Ctrl-C or: fusermount3 -u {}", vault, mountpoint, mountpoint);
        Thread.ofPlatform().daemon().start(() -> {
            handle.awaitEnd();
            stop.countDown();
        });
        stop.await();
        if (!handle.isMounted()) {
            LOG.info("{} was unmounted from outside; exiting", mountpoint);
            return 0;
        }
        try {
            mount.unmount();
        } catch (UnmountFailedException busy) {
            LOG.warn("{}; ending it by force", busy.getMessage());
            mount.unmountForced();
        }
        LOG.info("unmounted {}", mountpoint);
        return 0;
    }

    /** The most bytes of a password file's first line read: more is refused (as /dev/zero would give). */
    private static final int MAX_PASSWORD_BYTES = 64 * 1024;

    /** The first line of {@code file}, or typed at the terminal without echo; null, with the reason logged in one line, if none. */
    private static char[] password(Path file) {
        if (file != null) {
            return passfile(file);
        }
        Console console = System.console();
        char[] typed = console == null || !console.isTerminal() ? null : console.readPassword("Password: ");
        if (typed == null || typed.length == 0) {
            LOG.error("cryptomator: no password: type it at a terminal or use --passfile FILE");
            return null;
        }
        return typed;
    }

    /**
     * The first line of {@code file}; null, with one line logged, if it is missing, a directory,
     * unreadable, empty, longer than {@link #MAX_PASSWORD_BYTES} or not UTF-8. Only the first line
     * is read, so a pipe works as a file does.
     */
    private static char[] passfile(Path file) {
        String what = "--passfile " + file;
        try {
            if (Files.readAttributes(file, BasicFileAttributes.class).isDirectory()) {
                LOG.error("cryptomator: {} is a directory, not a file whose first line is the password", what);
                return null;
            }
        } catch (NoSuchFileException e) {
            LOG.error("cryptomator: {} does not exist", what);
            return null;
        } catch (IOException e) {
            LOG.error("cryptomator: {} cannot be examined: {}", what, reason(e));
            return null;
        }
        byte[] line = new byte[MAX_PASSWORD_BYTES + 1];
        int n = 0;
        try (InputStream in = Files.newInputStream(file)) {
            for (int b; n < line.length && (b = in.read()) >= 0 && b != '\n'; ) {
                line[n++] = (byte) b;
            }
            if (n == 0 || n > MAX_PASSWORD_BYTES) {
                LOG.error("cryptomator: {}: {}", what, n == 0 ? "its first line is empty; the password is the first line"
                        : "its first line is longer than " + MAX_PASSWORD_BYTES + " bytes");
                return null;
            }
            CharBuffer chars = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(line, 0, n));
            char[] password = new char[chars.remaining()];
            chars.get(password);
            Arrays.fill(chars.array(), '\0');
            return password;
        } catch (CharacterCodingException e) {
            LOG.error("cryptomator: {}: its first line is not UTF-8 text", what);
            return null;
        } catch (IOException e) {
            LOG.error("cryptomator: {} cannot be read: {}", what, reason(e));
            return null;
        } finally {
            Arrays.fill(line, (byte) 0);
        }
    }

    /** What {@code e} says went wrong, in strerror(3)'s words where Java has them. */
    private static String reason(IOException e) {
        if (e instanceof AccessDeniedException) return "permission denied";
        if (e instanceof FileSystemException f && f.getReason() != null) return f.getReason().toLowerCase(Locale.ROOT);
        return String.valueOf(e.getMessage());
    }

    /** One line: what is wrong, and where the usage is (the whole of it is --help's). */
    private static int usage(String problem) {
        LOG.error("cryptomator: {} (fuse-panama cryptomator --help shows the usage)", problem);
        return 2;
    }
}
