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
}
