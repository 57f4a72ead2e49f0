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

    @Test
    void anotherSystemIsRefusedWhateverItsArchitecture() {
        assertEquals(Arch.AARCH64, Arch.of("Linux", "aarch64"));
        for (String system : new String[] {"Mac OS X", "Windows 11", "FreeBSD", ""}) {
            assertNull(Arch.of(system, "aarch64"), system);
            assertNull(Arch.of(system, "amd64"), system);
        }
        String message = Arch.unsupported("Mac OS X", "aarch64");
        assertTrue(message.startsWith("fuse-panama supports Linux only; this JVM runs on Mac OS X (os.name)"), message);
    }
}
