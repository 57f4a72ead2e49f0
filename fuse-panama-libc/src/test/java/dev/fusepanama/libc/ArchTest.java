package dev.fusepanama.libc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ArchTest {
    @Test
    void javasNamesOfTheSupportedArchitecturesAreRecognised() {
        assertEquals(Arch.X86_64, Arch.of("amd64"));
        assertEquals(Arch.X86_64, Arch.of("x86_64"));
        assertEquals(Arch.AARCH64, Arch.of("aarch64"));
        assertEquals(Arch.RISCV64, Arch.of("riscv64"));
    }

    @Test
    void anyOtherArchitectureIsUnknownRatherThanGuessed() {
        for (String other : new String[] {"x86", "i386", "arm", "ppc64le", "s390x", "loongarch64", "riscv32", ""}) {
            assertNull(Arch.of(other), other);
        }
        String message = Arch.unsupported("s390x");
        assertTrue(message.startsWith("fuse-panama supports Linux on x86-64, aarch64, riscv64; this JVM is s390x (os.arch)"),
                message);
    }
}
