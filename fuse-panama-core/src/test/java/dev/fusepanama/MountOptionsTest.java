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
        String where = PathOptions.isSetting(option) ? "PathOptions.Builder.fuseOption"
                : KernelSettings.isSetting(option) ? "KernelSettings.Builder.fuseOption" : "MountOptions.Builder." + setting;
        assertTrue(e.getMessage().contains(where), e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"umask=022", "gid=100", "noforget", "uid=1000", "remember=5"})
    void aRawOptionWithoutATypedSettingIsPassedOn(String option) {
        assertTrue(MountOptions.builder().option(option).build().libfuseOptions().contains(option));
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
        PathOptions.Builder p = PathOptions.builder().hardRemove(true);
        PathOptions path = p.build();
        p.hardRemove(false);
        assertTrue(path.hardRemove());
        assertFalse(path.toBuilder().hardRemove(false).build().hardRemove());
        assertTrue(path.hardRemove());
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
    void thePathLayersOwnSettingsAreTakenByPathOptionsInTheirFuseSpelling() {
        PathOptions.Builder b = PathOptions.builder();
        for (String o : List.of("hard_remove", "nullpath_ok", "use_ino", "readdir_ino")) {
            assertTrue(PathOptions.isSetting(o), o);
            b.fuseOption(o);
        }
        PathOptions p = b.build();
        assertTrue(p.hardRemove() && p.nullPathOk() && p.useIno() && p.readdirIno());
        assertFalse(PathOptions.isSetting("allow_other"));
        assertFalse(PathOptions.isSetting("attr_timeout=1"));
        assertEquals("-o allow_other is not a path API setting",
                assertThrows(IllegalArgumentException.class, () -> PathOptions.builder().fuseOption("allow_other")).getMessage());
        assertEquals("-o kernel_cache is not a path API setting: it is a kernel setting (KernelSettings.Builder.fuseOption)",
                assertThrows(IllegalArgumentException.class, () -> PathOptions.builder().fuseOption("kernel_cache")).getMessage());
        assertEquals("-o use_ino takes no value: use_ino=1",
                assertThrows(IllegalArgumentException.class, () -> PathOptions.builder().fuseOption("use_ino=1")).getMessage());
        assertThrows(IllegalArgumentException.class, () -> MountOptions.builder().option("hard_remove"), "one way in");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "-o ro,rw | -o ro and -o rw contradict each other",
            "-o fsname=a -o fsname=b | -o fsname=a and -o fsname=b contradict each other",
            "-o max_read=lots | -o max_read=lots: lots is not a whole number",
            "-o attr_timeout=2 | -o attr_timeout=2 is a kernel setting the filesystem states, not one of the mount: KernelSettings.Builder.fuseOption, returned by the filesystem's kernelSettings() (ForwardingFileSystem.withKernelSettings or ForwardingInodeFileSystem.withKernelSettings to change it)",
            "-o hard_remove | -o hard_remove is a setting of the path API, not of the mount: PathOptions.Builder.fuseOption",
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
