package dev.fusepanama.vault.crypto;

import java.io.Serial;

/**
 * The password does not unlock the master key in gocryptfs.conf. Distinct from an
 * {@link java.io.IOException} from {@link VaultConfig#read}, which means the file itself is
 * unreadable or not a vault this code supports. The one case the two cannot be told apart: an
 * {@code EncryptedKey} altered in place (same length, other bytes) fails exactly as a wrong
 * password does, because the authentication tag is all either can be checked against.
 */
public final class WrongPasswordException extends Exception {
    @Serial
    private static final long serialVersionUID = 1L;

    /**
     * An exception for a password that did not authenticate the key.
     *
     * @param message what failed, naming the file
     * @param cause the authentication failure
     */
    public WrongPasswordException(String message, Throwable cause) {
        super(message, cause);
    }
}
