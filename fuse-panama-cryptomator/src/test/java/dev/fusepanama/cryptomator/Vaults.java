package dev.fusepanama.cryptomator;

import java.io.IOException;
import java.net.URI;
import java.nio.file.FileSystem;
import java.nio.file.Path;
import java.security.SecureRandom;
import org.cryptomator.cryptofs.CryptoFileSystemProperties;
import org.cryptomator.cryptofs.CryptoFileSystemProvider;
import org.cryptomator.cryptolib.api.CryptorProvider;
import org.cryptomator.cryptolib.api.Masterkey;
import org.cryptomator.cryptolib.common.MasterkeyFileAccess;

/** Cryptomator vaults as the desktop application makes them: cryptofs's format 8, SIV_GCM, a scrypt-protected masterkey file. */
final class Vaults {
    static final URI KEY_ID = URI.create("masterkeyfile:masterkey.cryptomator");
    private static final SecureRandom RANDOM = new SecureRandom();

    private Vaults() {}

    /** Makes a vault in the empty directory {@code dir}, its masterkey protected by {@code password}. */
    static void create(Path dir, String password) throws IOException {
        MasterkeyFileAccess access = new MasterkeyFileAccess(new byte[0], RANDOM);
        try (Masterkey key = Masterkey.generate(RANDOM)) {
            access.persist(key, dir.resolve("masterkey.cryptomator"), password);
            CryptoFileSystemProvider.initialize(dir, properties(dir, password, false), KEY_ID);
        }
    }

    /** Opens the vault in {@code dir} as cryptofs's NIO filesystem. */
    static FileSystem open(Path dir, String password, boolean readOnly) throws IOException {
        return CryptoFileSystemProvider.newFileSystem(dir, properties(dir, password, readOnly));
    }

    private static CryptoFileSystemProperties properties(Path dir, String password, boolean readOnly) {
        MasterkeyFileAccess access = new MasterkeyFileAccess(new byte[0], RANDOM);
        CryptoFileSystemProperties.Builder b = CryptoFileSystemProperties.cryptoFileSystemProperties()
                .withCipherCombo(CryptorProvider.Scheme.SIV_GCM)
                .withKeyLoader(keyId -> access.load(dir.resolve(keyId.getSchemeSpecificPart()), password));
        if (readOnly) b.withFlags(CryptoFileSystemProperties.FileSystemFlags.READONLY);
        return b.build();
    }
}
