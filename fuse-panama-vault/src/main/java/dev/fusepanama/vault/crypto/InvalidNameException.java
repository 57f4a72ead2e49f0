package dev.fusepanama.vault.crypto;

import java.io.IOException;
import java.io.Serial;

/**
 * A name in the encrypted tree that does not decrypt to a valid file name: not base64, a length
 * EME cannot have produced, bad padding, or a forbidden plaintext ({@code /}, NUL, {@code .},
 * {@code ..}). gocryptfs hides such entries from listings and logs them; the message says which
 * of these it was.
 */
public final class InvalidNameException extends IOException {
    @Serial
    private static final long serialVersionUID = 1L;

    /**
     * An exception with no cause.
     *
     * @param message what was wrong, and where
     */
    public InvalidNameException(String message) {
        super(message);
    }

    /**
     * An exception with the failure that revealed it.
     *
     * @param message what was wrong, and where
     * @param cause what revealed it, such as a failed authentication tag or a base64 error
     */
    public InvalidNameException(String message, Throwable cause) {
        super(message, cause);
    }
}
