package dev.fusepanama;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** What {@link KernelSettings} holds, pure logic; each setting's effect is seen through a mount in the testkit. */
class KernelSettingsTest {

    @Test
    void autoInvalDataAndAtomicOTruncAreOffByDefaultAndAreTheirCapabilities() {
        KernelSettings d = KernelSettings.DEFAULTS;
        assertFalse(d.autoInvalData());
        assertFalse(d.atomicOTrunc());
        assertEquals(ConnectionInfo.CAP_AUTO_INVAL_DATA | ConnectionInfo.CAP_ATOMIC_O_TRUNC, d.unwantedCapabilities());
        assertEquals(0, d.wantedCapabilities());
        KernelSettings on = KernelSettings.builder().want(ConnectionInfo.CAP_AUTO_INVAL_DATA | ConnectionInfo.CAP_SPLICE_READ).build();
        assertTrue(on.autoInvalData());
        assertEquals(0, on.unwantedCapabilities() & ConnectionInfo.CAP_AUTO_INVAL_DATA);
        KernelSettings offAgain = on.toBuilder().autoInvalData(false).build();
        assertEquals(ConnectionInfo.CAP_SPLICE_READ, offAgain.wantedCapabilities());
        assertEquals(ConnectionInfo.CAP_AUTO_INVAL_DATA, offAgain.unwantedCapabilities() & ConnectionInfo.CAP_AUTO_INVAL_DATA);
        KernelSettings trunc = KernelSettings.builder().atomicOTrunc(true).build();
        assertTrue(trunc.atomicOTrunc());
        assertEquals(ConnectionInfo.CAP_ATOMIC_O_TRUNC, trunc.wantedCapabilities());
    }

    @Test
    void aCapabilityWithATypedSettingIsRefusedAsARawOne() {
        for (long cap : List.of(ConnectionInfo.CAP_WRITEBACK_CACHE, ConnectionInfo.CAP_HANDLE_KILLPRIV_V2,
                ConnectionInfo.CAP_EXPLICIT_INVAL_DATA, ConnectionInfo.CAP_NO_OPENDIR_SUPPORT, ConnectionInfo.CAP_PASSTHROUGH)) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> KernelSettings.builder().want(cap));
            assertTrue(e.getMessage().contains("are the settings of those capabilities"), e.getMessage());
            assertThrows(IllegalArgumentException.class, () -> KernelSettings.builder().unwant(cap));
        }
    }

    @Test
    void theFuseSpellingsSetTheTypedSettings() {
        KernelSettings.Builder b = KernelSettings.builder();
        for (String o : List.of("attr_timeout=2.5", "entry_timeout=1", "negative_timeout=3", "kernel_cache", "auto_cache",
                "direct_io", "auto_inval_data")) {
            assertTrue(KernelSettings.isSetting(o), o);
            b.fuseOption(o);
        }
        KernelSettings k = b.build();
        assertEquals(2.5, k.attrTimeout().getAsDouble());
        assertEquals(1.0, k.entryTimeout().getAsDouble());
        assertEquals(3.0, k.negativeTimeout());
        assertTrue(k.keepCache() && k.autoCache() && k.directIo() && k.autoInvalData());
        assertFalse(b.fuseOption("noauto_cache").fuseOption("no_auto_inval_data").build().autoCache());
        assertFalse(KernelSettings.isSetting("hard_remove"));
        assertEquals("-o attr_timeout=soon: soon is not a number of seconds",
                assertThrows(IllegalArgumentException.class, () -> KernelSettings.builder().fuseOption("attr_timeout=soon")).getMessage());
        for (String bad : List.of("attr_timeout=NaN", "entry_timeout=1e400", "attr_timeout=-Infinity")) {
            String value = bad.substring(bad.indexOf('=') + 1);
            assertEquals("-o " + bad + ": a timeout is a finite number of seconds >= 0, not " + Double.parseDouble(value),
                    assertThrows(IllegalArgumentException.class, () -> KernelSettings.builder().fuseOption(bad)).getMessage());
        }
        assertEquals("-o negative_timeout=-1: a negative entry timeout is a finite number of seconds >= 0, not -1.0",
                assertThrows(IllegalArgumentException.class, () -> KernelSettings.builder().fuseOption("negative_timeout=-1")).getMessage());
        assertEquals("-o kernel_cache takes no value: kernel_cache=1",
                assertThrows(IllegalArgumentException.class, () -> KernelSettings.builder().fuseOption("kernel_cache=1")).getMessage());
        assertEquals("-o attr_timeout needs a value: attr_timeout=SECONDS",
                assertThrows(IllegalArgumentException.class, () -> KernelSettings.builder().fuseOption("attr_timeout")).getMessage());
        assertEquals("-o hard_remove is not a kernel setting",
                assertThrows(IllegalArgumentException.class, () -> KernelSettings.builder().fuseOption("hard_remove")).getMessage());
    }

    @Test
    void eachApisOwnSettingsAreNamedForItsRefusal() {
        KernelSettings k = KernelSettings.builder().attrTimeout(0).keepCache(true).noOpendir(true).negativeEntries(1).build();
        assertEquals(List.of("attrTimeout", "keepCache"), k.pathOnly());
        assertEquals(List.of("noOpendir"), k.inodeOnly());
        assertTrue(k.keepListings(), "noOpendir implies kept listings");
        assertEquals(List.of(), KernelSettings.DEFAULTS.pathOnly());
        assertEquals(List.of(), KernelSettings.DEFAULTS.inodeOnly());
        assertEquals(List.of(), KernelSettings.DEFAULTS.names());
        assertTrue(k.names().containsAll(List.of("noOpendir", "keepListings", "negativeEntries", "attrTimeout", "keepCache")), k.names().toString());
    }

    @Test
    void builtSettingsDoNotChangeWithTheirBuilderAndCompareByValue() {
        KernelSettings.Builder b = KernelSettings.builder().attrTimeout(1).handleKillprivV2(true);
        KernelSettings first = b.build();
        b.attrTimeout(2);
        assertEquals(1.0, first.attrTimeout().orElseThrow());
        assertEquals(first, KernelSettings.builder().handleKillprivV2(true).attrTimeout(1).build());
        assertEquals(first.hashCode(), KernelSettings.builder().handleKillprivV2(true).attrTimeout(1).build().hashCode());
        assertNotEquals(first, b.build());
        assertEquals(KernelSettings.DEFAULTS, KernelSettings.builder().build());
        assertNotEquals(KernelSettings.DEFAULTS, KernelSettings.builder().attrTimeout(1).build(), "libfuse's 1 s asked for is still asked for");
        assertThrows(IllegalArgumentException.class, () -> KernelSettings.builder().attrTimeout(-1));
        assertThrows(IllegalArgumentException.class, () -> KernelSettings.builder().negativeEntries(Double.NaN));
    }
}
