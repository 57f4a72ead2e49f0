package dev.fusepanama;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class MountOptionsTest {

    @ParameterizedTest
    @CsvSource({"attr_timeout=1, attrTimeout", "allow_other, allowOther", "ro, readOnly", "max_write=65536, maxWrite",
            "max_read=65536, maxRead", "hard_remove, hardRemove", "fsname=x, fsName", "auto_inval_data, autoInvalData",
            "no_auto_inval_data, autoInvalData", "max_idle_threads=2, maxIdleThreads", "intr, interrupts",
            "readdir_ino, readdirIno"})
    void aRawOptionThatHasATypedSettingIsRefusedWithItsName(String option, String setting) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> MountOptions.builder().option(option));
        assertTrue(e.getMessage().contains("MountOptions.Builder." + setting), e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"umask=022", "gid=100", "noforget", "uid=1000", "remember=5"})
    void aRawOptionWithoutATypedSettingIsPassedOn(String option) {
        assertTrue(MountOptions.builder().option(option).build().libfuseOptions().contains(option));
    }

    @Test
    void autoInvalDataIsOffByDefaultAndIsTheSameSettingAsItsCapability() {
        MountOptions defaults = MountOptions.defaults();
        assertFalse(defaults.autoInvalData());
        assertEquals(ConnectionInfo.CAP_AUTO_INVAL_DATA, defaults.unwantedCapabilities() & ConnectionInfo.CAP_AUTO_INVAL_DATA);
        MountOptions on = MountOptions.builder().want(ConnectionInfo.CAP_AUTO_INVAL_DATA | ConnectionInfo.CAP_SPLICE_READ).build();
        assertTrue(on.autoInvalData());
        assertEquals(0, on.unwantedCapabilities() & ConnectionInfo.CAP_AUTO_INVAL_DATA);
        MountOptions offAgain = on.toBuilder().autoInvalData(false).build();
        assertEquals(ConnectionInfo.CAP_SPLICE_READ, offAgain.wantedCapabilities());
        assertEquals(ConnectionInfo.CAP_AUTO_INVAL_DATA, offAgain.unwantedCapabilities() & ConnectionInfo.CAP_AUTO_INVAL_DATA);
    }

    @Test
    void atomicOTruncIsOffByDefaultAndIsTheSameSettingAsItsCapability() {
        assertFalse(MountOptions.defaults().atomicOTrunc());
        assertEquals(ConnectionInfo.CAP_AUTO_INVAL_DATA | ConnectionInfo.CAP_ATOMIC_O_TRUNC,
                MountOptions.defaults().unwantedCapabilities());
        MountOptions on = MountOptions.builder().atomicOTrunc(true).build();
        assertTrue(on.atomicOTrunc());
        assertEquals(ConnectionInfo.CAP_ATOMIC_O_TRUNC, on.wantedCapabilities());
        assertEquals(ConnectionInfo.CAP_AUTO_INVAL_DATA, on.unwantedCapabilities());
    }

    @Test
    void maxReadIsBothTheKernelsMountOptionAndTheConnectionsValue() {
        MountOptions o = MountOptions.builder().maxRead(65536).build();
        assertTrue(o.libfuseOptions().contains("max_read=65536"));
        assertEquals(65536, o.maxRead());
    }

    @Test
    void aBuiltOptionsObjectDoesNotChangeWithItsBuilder() {
        MountOptions.Builder b = MountOptions.builder().option("umask=022").attrTimeout(1);
        MountOptions first = b.build();
        b.option("noforget").attrTimeout(2);
        MountOptions.Builder copy = first.toBuilder().option("remember=5");
        assertEquals(List.of("umask=022"), first.rawOptions());
        assertEquals(1.0, first.attrTimeout().orElseThrow());
        assertEquals(List.of("umask=022", "remember=5"), copy.build().rawOptions());
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 2, 15, 110, 2_000_000_000})
    void timeGranularityMustBeAPowerOfTen(int nanos) {
        assertThrows(IllegalArgumentException.class, () -> MountOptions.builder().timeGranularity(nanos));
    }

    @Test
    void timeGranularityAcceptsPowersOfTen() {
        for (int n = 1; n <= 1_000_000_000; n *= 10) {
            assertEquals(n, MountOptions.builder().timeGranularity(n).build().timeGranularity());
            if (n == 1_000_000_000) break;
        }
    }

    @Test
    void fuseOptionsAsACommandLineSpellsThemSetTheTypedSettings() {
        MountOptions o = MountOptions.builder()
                .fuseOptions("-o allow_other,ro -ofsname=vault -o attr_timeout=2.5,max_read=65536 auto_unmount,umask=022")
                .build();
        assertTrue(o.allowOther());
        assertTrue(o.readOnly());
        assertEquals("vault", o.fsName());
        assertEquals(2.5, o.attrTimeout().getAsDouble());
        assertEquals(65536, o.maxRead());
        assertTrue(o.libfuseOptions().contains("auto_unmount"), o.libfuseOptions().toString());
        assertTrue(o.libfuseOptions().contains("umask=022"), o.libfuseOptions().toString());
        assertEquals(MountOptions.defaults().libfuseOptions(), MountOptions.builder().fuseOptions("  ").build().libfuseOptions());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "-o ro,rw | -o ro and -o rw contradict each other",
            "-o fsname=a -o fsname=b | -o fsname=a and -o fsname=b contradict each other",
            "-o max_read=lots | -o max_read=lots: lots is not a whole number",
            "-o attr_timeout=soon | -o attr_timeout=soon: soon is not a number of seconds",
            "-o ro=1 | -o ro takes no value: ro=1",
            "-o fsname | -o fsname needs a value: fsname=VALUE",
            "-o | -o needs a list of options after it",
            "-f | -f is not a mount option: give options as -o NAME[=VALUE],...",
            "-o ro,,rw | an empty option in -o ro,,rw"})
    void fuseOptionsThatCannotBeTakenAreRefusedInTheirOwnSpelling(String commandLine, String message) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> MountOptions.builder().fuseOptions(commandLine));
        assertEquals(message, e.getMessage());
    }
}
