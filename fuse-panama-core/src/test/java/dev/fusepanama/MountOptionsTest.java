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
        String where = PathOptions.isSetting(option) ? "PathOptions.Builder.fuseOption" : "MountOptions.Builder." + setting;
        assertTrue(e.getMessage().contains(where), e.getMessage());
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
        MountOptions.Builder b = MountOptions.builder().option("umask=022").maxThreads(3);
        MountOptions first = b.build();
        b.option("noforget").maxThreads(4);
        MountOptions.Builder copy = first.toBuilder().option("remember=5");
        assertEquals(List.of("umask=022"), first.rawOptions());
        assertEquals(3, first.maxThreads());
        assertEquals(List.of("umask=022", "remember=5"), copy.build().rawOptions());
        PathOptions.Builder p = PathOptions.builder().attrTimeout(1);
        PathOptions path = p.build();
        p.attrTimeout(2);
        assertEquals(1.0, path.attrTimeout().orElseThrow());
        assertEquals(2.0, path.toBuilder().attrTimeout(2).build().attrTimeout().orElseThrow());
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
                .fuseOptions("-o allow_other,ro -ofsname=vault -o max_read=65536 auto_unmount,umask=022")
                .build();
        assertTrue(o.allowOther());
        assertTrue(o.readOnly());
        assertEquals("vault", o.fsName());
        assertEquals(65536, o.maxRead());
        assertTrue(o.libfuseOptions().contains("auto_unmount"), o.libfuseOptions().toString());
        assertTrue(o.libfuseOptions().contains("umask=022"), o.libfuseOptions().toString());
        assertEquals(MountOptions.defaults().libfuseOptions(), MountOptions.builder().fuseOptions("  ").build().libfuseOptions());
    }

    /** Every -o name falls in one place: the mount's (typed or passed on), the path API's (typed or passed on), or none. */
    @Test
    void eachFuseOptionNameIsTheMountsThePathApisOrUnknown() {
        for (String o : List.of("ro", "allow_other", "fsname=x", "max_read=4096", "allow_root", "auto_unmount", "nosuid", "noatime")) {
            assertTrue(MountOptions.isMountOption(o), o);
            assertFalse(PathOptions.isSetting(o) || PathOptions.isPassedOn(o), o);
        }
        for (String o : List.of("uid=0", "gid=0", "umask=022", "noforget", "modules=subdir")) {
            assertTrue(PathOptions.isPassedOn(o), o);
            assertFalse(MountOptions.isMountOption(o) || PathOptions.isSetting(o), o);
        }
        for (String o : List.of("allow_othr", "attr_timeout=1", "uid", "")) {
            assertFalse(MountOptions.isMountOption(o), o);
        }
        assertEquals("fsname", MountOptions.optionName("fsname=a=b"));
        assertEquals("ro", MountOptions.optionName("ro"));
        assertEquals("", MountOptions.optionName("=x"));
    }

    @Test
    void thePathApisOwnSettingsAreTakenByPathOptionsInTheirFuseSpelling() {
        PathOptions.Builder b = PathOptions.builder();
        for (String o : List.of("attr_timeout=2.5", "entry_timeout=1", "negative_timeout=0", "kernel_cache", "hard_remove")) {
            assertTrue(PathOptions.isSetting(o), o);
            b.fuseOption(o);
        }
        PathOptions p = b.build();
        assertEquals(2.5, p.attrTimeout().getAsDouble());
        assertEquals(0.0, p.negativeTimeout().getAsDouble());
        assertTrue(p.kernelCache() && p.hardRemove());
        assertFalse(PathOptions.isSetting("allow_other"));
        assertEquals("-o attr_timeout=soon: soon is not a number of seconds",
                assertThrows(IllegalArgumentException.class, () -> PathOptions.builder().fuseOption("attr_timeout=soon")).getMessage());
        for (String bad : List.of("attr_timeout=NaN", "entry_timeout=1e400", "negative_timeout=-1", "attr_timeout=-Infinity")) {
            String value = bad.substring(bad.indexOf('=') + 1);
            assertEquals("-o " + bad + ": a timeout is a finite number of seconds >= 0, not " + Double.parseDouble(value),
                    assertThrows(IllegalArgumentException.class, () -> PathOptions.builder().fuseOption(bad)).getMessage());
        }
        assertThrows(IllegalArgumentException.class, () -> PathOptions.builder().attrTimeout(Double.POSITIVE_INFINITY));
        assertEquals("-o allow_other is not a path API setting",
                assertThrows(IllegalArgumentException.class, () -> PathOptions.builder().fuseOption("allow_other")).getMessage());
        assertThrows(IllegalArgumentException.class, () -> MountOptions.builder().option("kernel_cache"), "one way in");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "-o ro,rw | -o ro and -o rw contradict each other",
            "-o fsname=a -o fsname=b | -o fsname=a and -o fsname=b contradict each other",
            "-o max_read=lots | -o max_read=lots: lots is not a whole number",
            "-o attr_timeout=2 | -o attr_timeout=2 is a setting of the path API, not of the mount: PathOptions.Builder.fuseOption (an inode filesystem sends its timeouts and open flags with each reply)",
            "-o ro=1 | -o ro takes no value: ro=1",
            "-o fsname | -o fsname needs a value: fsname=VALUE",
            "-o fsname= | -o fsname= needs a value: fsname=VALUE",
            "-o max_read=0 | -o max_read=0: maxRead must be at least 4096: 0",
            "-o max_threads=0 | -o max_threads=0: maxThreads must be 1..100000: 0",
            "-o max_threads=100001 | -o max_threads=100001: maxThreads must be 1..100000: 100001",
            "-o max_readahead=-1 | -o max_readahead=-1: maxReadahead must not be negative: -1",
            "-o | -o needs a list of options after it",
            "-f | -f is not a mount option: give options as -o NAME[=VALUE],...",
            "-o ro,,rw | an empty option in -o ro,,rw",
            "-o ro, | an empty option in -o ro,"})
    void fuseOptionsThatCannotBeTakenAreRefusedInTheirOwnSpelling(String commandLine, String message) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> MountOptions.builder().fuseOptions(commandLine));
        assertEquals(message, e.getMessage());
    }

    @Test
    void aCommandLineSplitsIntoItsSingleOptionsInOrder() {
        assertEquals(List.of("allow_other", "ro", "fsname=vault", "uid=7"),
                MountOptions.splitOptions(" -o allow_other,ro  -ofsname=vault uid=7 "));
        assertEquals(List.of(), MountOptions.splitOptions("  "));
        assertEquals("-x is not a mount option: give options as -o NAME[=VALUE],...",
                assertThrows(IllegalArgumentException.class, () -> MountOptions.splitOptions("-o ro -x")).getMessage());
    }
}
