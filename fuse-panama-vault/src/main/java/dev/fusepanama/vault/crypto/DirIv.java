package dev.fusepanama.vault.crypto;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.Set;

/**
 * The per-directory IV: 16 random bytes in {@code gocryptfs.diriv} in every ciphertext
 * directory, the root included, written once when the directory is created (mode 0444, as
 * gocryptfs does) and the tweak for every name in it. A renamed directory keeps its IV, so its
 * entries need no re-encryption; the directory's own name is encrypted under its parent's IV.
 */
public final class DirIv {
    /** The IV's file in every ciphertext directory. */
    public static final String FILE_NAME = "gocryptfs.diriv";
    /** The length of an IV, in bytes. */
    public static final int LENGTH = 16;

    private DirIv() {}

    /** {@return a new random IV} (never all zero) */
    public static byte[] random() {
        return SecureBytes.bytes(LENGTH);
    }

    /**
     * {@code content} as a directory IV, checked as gocryptfs checks what it reads from
     * {@code gocryptfs.diriv}: exactly 16 bytes, not all zero.
     *
     * @param content the file's content
     * @return a copy of it
     * @throws IOException if it is not 16 bytes, or all zero
     */
    public static byte[] of(byte[] content) throws IOException {
        if (content.length != LENGTH) {
            throw new IOException(FILE_NAME + ": " + content.length + " bytes, expected " + LENGTH);
        }
        if (SecureBytes.isZero(content)) {
            throw new IOException(FILE_NAME + ": all zero");
        }
        return content.clone();
    }

    /**
     * Reads and checks {@code dir/gocryptfs.diriv}, not following a symlink in its place.
     *
     * @param dir a ciphertext directory
     * @return its IV
     * @throws IOException if the file cannot be read, or holds no valid IV (its name in the message)
     */
    public static byte[] read(Path dir) throws IOException {
        Path file = dir.resolve(FILE_NAME);
        try (SeekableByteChannel in = Files.newByteChannel(file, Set.of(StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS))) {
            // One byte more than an IV, to see a file that is too long.
            ByteBuffer buf = ByteBuffer.allocate(LENGTH + 1);
            int n;
            do {
                n = in.read(buf);
            } while (n > 0 && buf.hasRemaining());
            try {
                return of(Arrays.copyOf(buf.array(), buf.position()));
            } catch (IOException e) {
                throw new IOException(file + ": " + e.getMessage(), e);
            }
        }
    }

    /**
     * Creates {@code dir/gocryptfs.diriv} with a new IV, mode 0444.
     *
     * @param dir a new ciphertext directory
     * @return the IV
     * @throws IOException if it cannot be written ({@link java.nio.file.FileAlreadyExistsException}
     *     if it exists); a torn file is removed again
     */
    public static byte[] create(Path dir) throws IOException {
        byte[] iv = random();
        Path file = dir.resolve(FILE_NAME);
        SeekableByteChannel out = Files.newByteChannel(file,
                Set.of(StandardOpenOption.WRITE, StandardOpenOption.CREATE_NEW),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("r--r--r--")));
        try (out) {
            ByteBuffer buf = ByteBuffer.wrap(iv);
            while (buf.hasRemaining()) {
                out.write(buf);
            }
        } catch (IOException e) {
            // A torn IV would make every name in the directory undecryptable: leave none.
            Files.deleteIfExists(file);
            throw e;
        }
        return iv;
    }

    static void require(byte[] iv) {
        if (iv.length != LENGTH) {
            throw new IllegalArgumentException("directory IV must be " + LENGTH + " bytes, not " + iv.length);
        }
    }
}
