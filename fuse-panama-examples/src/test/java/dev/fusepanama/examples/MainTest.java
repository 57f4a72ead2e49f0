package dev.fusepanama.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class MainTest {
    @Test
    void sizesParseLikeMountOptions() {
        assertEquals(512L << 20, Main.parseSize("512M"));
        assertEquals(2L << 30, Main.parseSize("2g"));
        assertEquals(4096, Main.parseSize("4096"));
        List.of("", "12X", "-1G", "M").forEach(bad -> {
            try {
                Main.parseSize(bad);
                throw new AssertionError("accepted " + bad);
            } catch (picocli.CommandLine.TypeConversionException expected) {
                // refused
            }
        });
    }
}
