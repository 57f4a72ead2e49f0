package dev.fusepanama.vault.crypto;

import java.io.IOException;
import java.io.Serial;

/**
 * Encrypted data that is not what this vault's key wrote where it was found: a block whose
 * authentication tag does not verify (changed, truncated, moved to another block number or
 * another file), an impossible block length, an all-zero nonce, or a file header or symlink
 * target that cannot be parsed. The cause is the JDK's {@link javax.crypto.AEADBadTagException}
 * when the tag failed. A file system answers it with {@code EIO}, as gocryptfs does.
 */
public final class CorruptDataException extends IOException {
    @Serial
    private static final long serialVersionUID = 1L;

    /**
     * An exception with no cause.
     *
     * @param message what was wrong, and where
     */
    public CorruptDataException(String message) {
        super(message);
    }

    /**
     * An exception with the failure that revealed it.
     *
     * @param message what was wrong, and where
     * @param cause what revealed it, such as a failed authentication tag or a base64 error
     */
    public CorruptDataException(String message, Throwable cause) {
        super(message, cause);
    }
}
