package dev.fusepanama;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class ErrnoExceptionTest {
    @Test
    void anErrnoAnswerCarriesNoStackTrace() {
        ErrnoException e = new ErrnoException(Errno.ENOENT);
        assertEquals(0, e.getStackTrace().length, "filling one in would make every failed lookup slow");
        assertEquals(Errno.ENOENT, e.errno());
        assertEquals("ENOENT", e.getMessage());
    }

    @Test
    void onlyPositiveErrnosAreAnswers() {
        assertThrows(IllegalArgumentException.class, () -> new ErrnoException(-Errno.ENOENT));
        assertThrows(IllegalArgumentException.class, () -> new ErrnoException(0));
    }

    @Test
    void aStoreFailureAProviderWrapsIsTheStoresErrno() {
        // cryptofs's chunk cache, flushed when the store is full
        java.io.IOException full = new java.io.IOException("No space left on device");
        java.io.IOException wrapped = new java.io.IOException(new java.io.UncheckedIOException(full));
        assertEquals(Errno.ENOSPC, ErrnoException.errnoOf(full));
        assertEquals(Errno.ENOSPC, ErrnoException.errnoOf(wrapped));
        assertEquals(Errno.ENOENT, ErrnoException.errnoOf(new RuntimeException(new java.nio.file.NoSuchFileException("x"))));
        assertEquals(Errno.EIO, ErrnoException.errnoOf(new java.io.IOException("checksum mismatch", new IllegalStateException())));
    }

    @Test
    void exceptionsOfJavaNioFileAreTheErrnoAKernelFilesystemGives() {
        assertEquals(Errno.EXDEV, ErrnoException.errnoOf(new java.nio.file.AtomicMoveNotSupportedException("a", "b", "no")));
        assertEquals(Errno.EOPNOTSUPP, ErrnoException.errnoOf(new UnsupportedOperationException()));
        assertEquals(Errno.EBADF, ErrnoException.errnoOf(new java.nio.channels.ClosedChannelException()));
        assertEquals(Errno.EBADF, ErrnoException.errnoOf(new java.nio.channels.NonWritableChannelException()));
        // The default provider's reason is strerror(3)'s text; another provider's may say more after it.
        assertEquals(Errno.EXDEV, ErrnoException.errnoOf(new java.nio.file.FileSystemException("a", "b", "Invalid cross-device link")));
        assertEquals(Errno.ENAMETOOLONG, ErrnoException.errnoOf(
                new java.nio.file.FileSystemException("a", null, "File name too long: at most 255 bytes")));
        assertEquals(Errno.EIO, ErrnoException.errnoOf(new java.nio.file.FileSystemException("a", null, "the disk is on fire")));
        // A FileChannel's read or write throws a plain IOException with strerror(3)'s text.
        assertEquals(Errno.EDQUOT, ErrnoException.errnoOf(new java.io.IOException("Disk quota exceeded")));
        // What the JDK says when the process or the machine is out of descriptors: not an I/O error.
        assertEquals(Errno.EMFILE, ErrnoException.errnoOf(new java.nio.file.FileSystemException("/a", null, "Too many open files")));
        assertEquals(Errno.ENFILE, ErrnoException.errnoOf(
                new java.nio.file.FileSystemException("/a", null, "Too many open files in system")));
    }
}
