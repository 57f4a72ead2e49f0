package dev.fusepanama.internal.bind;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.fusepanama.internal.bind.LibFuseVersion.LoopSymbol;
import dev.fusepanama.internal.bind.LibFuseVersion.NewSymbol;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Which entry points and struct layouts each libfuse release gets, including releases that are
 * not installed here. The symbol sets are what each release's library exports to an unversioned
 * dlsym (3.17+ has no default {@code _fuse_new}: only {@code _fuse_new_31@@FUSE_3.17}).
 */
class LibFuseVersionTest {
    static final Set<String> V3_10 = Set.of("fuse_new", "fuse_loop_mt");
    static final Set<String> V3_14 = Set.of("fuse_new", "fuse_new_31", "fuse_loop_mt", "fuse_loop_mt_32",
            "fuse_loop_mt_312", "fuse_loop_cfg_create");
    static final Set<String> V3_17 = Set.of("_fuse_new_31", "fuse_new_31", "fuse_loop_mt", "fuse_loop_mt_32",
            "fuse_loop_mt_312", "fuse_loop_cfg_create");

    static StructLayouts layouts(String release, Set<String> symbols) {
        String[] p = release.split("\\.");
        return StructLayouts.of(LibFuseVersion.select(release, Integer.parseInt(p[0]) * 100 + Integer.parseInt(p[1]), symbols));
    }

    @Test
    void libfuse310UsesTheV1LoopConfigAndTheOriginalLayouts() {
        LibFuseVersion v = LibFuseVersion.select("3.10.3", 310, V3_10);
        assertEquals(NewSymbol.FUSE_NEW, v.newSymbol());
        assertEquals(LoopSymbol.LOOP_MT_DEFAULT_32, v.loopSymbol());
        assertFalse(v.loopSymbol().usesConfigObject());
        assertFalse(v.wantExt());
        StructLayouts l = StructLayouts.of(v);
        assertEquals(fuse_config.LAYOUT_310, l.fuseConfig());
        assertEquals(fuse_file_info.Bits.V310, l.fileInfoBits());
        assertEquals(40, l.bufSize());
        assertEquals(42 * 8, l.operations().byteSize());
    }

    @Test
    void libfuse3140UsesTheConfigObjectAnd32BitWant() {
        LibFuseVersion v = LibFuseVersion.select("3.14.0", 314, V3_14);
        assertEquals(NewSymbol.FUSE_NEW_31, v.newSymbol());
        assertEquals(LoopSymbol.LOOP_MT_312, v.loopSymbol());
        assertFalse(v.wantExt());
        assertEquals(fuse_config.LAYOUT_311, StructLayouts.of(v).fuseConfig());
        assertEquals(fuse_file_info.Bits.V311, StructLayouts.of(v).fileInfoBits());
    }

    @Test
    void libfuse3141To316AreToldFrom3140ByThePatchLevelAlone() {
        // fuse_version() is 314 for both; parallel_direct_writes moved fields and bits in 3.14.1.
        for (String release : List.of("3.14.1", "3.15.1", "3.16.2")) {
            StructLayouts l = layouts(release, V3_14);
            assertEquals(fuse_config.LAYOUT_3141, l.fuseConfig(), release);
            assertEquals(fuse_file_info.Bits.V3141, l.fileInfoBits(), release);
            assertEquals(3, l.fileInfoBits().parallelDirectWrites(), release);
            assertEquals(4, l.fileInfoBits().flush(), release);
        }
        assertEquals(104, fuse_config.LAYOUT_3141.byteOffset(java.lang.foreign.MemoryLayout.PathElement.groupElement("nullpath_ok")));
    }

    @Test
    void libfuse317CallsTheVersionedFuseNewAndUsesWantExtAndTheRestoredLayouts() {
        LibFuseVersion v = LibFuseVersion.select("3.17.2", 317, V3_17);
        assertEquals(NewSymbol.FUSE_NEW_317, v.newSymbol());
        assertEquals("_fuse_new_31", v.newSymbol().symbol);
        assertTrue(v.wantExt());
        assertEquals(LoopSymbol.LOOP_MT_312, v.loopSymbol());
        StructLayouts l = StructLayouts.of(v);
        assertEquals(fuse_config.LAYOUT_317, l.fuseConfig());
        assertEquals(fuse_file_info.Bits.V317, l.fileInfoBits());
        assertEquals(64, l.fileInfo().byteSize());
        assertEquals(48, l.bufSize());
        assertEquals(72, l.bufvecSize());
        assertEquals(fuse_conn_info.LAYOUT_317, l.connInfo());
        assertEquals(42 * 8, l.operations().byteSize());
    }

    @Test
    void libfuse318AddsStatxAndTheRequestTimeout() {
        StructLayouts l = layouts("3.18.3", V3_17);
        assertEquals(43 * 8, l.operations().byteSize());
        assertEquals(fuse_conn_info.LAYOUT_318, l.connInfo());
    }

    @Test
    void aLibraryWithoutTheVersionedSymbolFallsBackToTheCompatAbi() {
        LibFuseVersion v = LibFuseVersion.select("3.18.0", 318, Set.of("fuse_new_31", "fuse_loop_mt", "fuse_loop_cfg_create"));
        assertEquals(NewSymbol.FUSE_NEW_31, v.newSymbol());
        assertEquals(LoopSymbol.LOOP_MT_DEFAULT_312, v.loopSymbol());
        assertTrue(v.wantExt(), "3.17+ layout rules apply whatever symbol is called");
    }

    @Test
    void patchLevelsCompareInOrder() {
        LibFuseVersion v = LibFuseVersion.select("3.14.1", 314, V3_14);
        assertTrue(v.atLeast(3, 14, 1));
        assertTrue(v.atLeast(3, 13, 9));
        assertFalse(v.atLeast(3, 14, 2));
        assertFalse(v.atLeast(3, 15, 0));
        assertEquals("3.14.1", v.toString());
        assertEquals("3.17.1", LibFuseVersion.select("3.17.1-rc1", 317, V3_17).toString());
    }

    @Test
    void releasesOutsideThe3xLineFrom310AreRefusedWithAFix() {
        var old = assertThrows(UnsupportedOperationException.class, () -> LibFuseVersion.select("3.9.4", 309, V3_10));
        assertTrue(old.getMessage().contains("3.9.4 is too old"), old.getMessage());
        assertTrue(old.getMessage().contains("3.10 or newer"), old.getMessage());
        var next = assertThrows(UnsupportedOperationException.class, () -> LibFuseVersion.select("4.0.0", 400, V3_17));
        assertTrue(next.getMessage().contains("major version"), next.getMessage());
    }

    @Test
    void aVersionThatCannotBeReadOrContradictsItselfIsRefused() {
        var unreadable = assertThrows(UnsupportedOperationException.class, () -> LibFuseVersion.select("unknown", 314, V3_14));
        assertTrue(unreadable.getMessage().contains("'unknown'"), unreadable.getMessage());
        var contradicting = assertThrows(UnsupportedOperationException.class, () -> LibFuseVersion.select("3.17.2", 314, V3_17));
        assertTrue(contradicting.getMessage().contains("contradicts"), contradicting.getMessage());
    }

    @Test
    void aLibraryWithoutFuseNewIsRefused() {
        var e = assertThrows(UnsupportedOperationException.class, () -> LibFuseVersion.select("3.14.0", 314, Set.of("fuse_loop_mt_32")));
        assertTrue(e.getMessage().contains("fuse_new"), e.getMessage());
    }

    @Test
    void theInstalledLibraryLoadsAndAMissingOneSaysWhatWasTriedAndHowToFixIt() {
        LibFuse lib = LibFuse.get();
        assertTrue(lib.version.api() >= LibFuseVersion.MINIMUM);
        assertTrue(lib.packageVersion.startsWith(lib.version.major() + "." + lib.version.minor()), lib.packageVersion);
        var e = assertThrows(LibFuseUnavailableException.class,
                () -> LibFuse.load(List.of("libfuse3-not-installed.so.4", "/nowhere/libfuse3.so.3")));
        assertTrue(e.getMessage().contains("libfuse3-not-installed.so.4"), e.getMessage());
        assertTrue(e.getMessage().contains("/nowhere/libfuse3.so.3"), e.getMessage());
        assertTrue(e.getMessage().contains("apt-get install fuse3"), e.getMessage());
        assertTrue(e.getMessage().contains(LibFuse.PROPERTY), e.getMessage());
    }

    @Test
    void aLibraryThatLoadsButIsNotLibfuseDoesNotHideTheNextCandidate() {
        LibFuse system = LibFuse.get();
        LibFuse lib = LibFuse.load(List.of("libc.so.6", system.name));
        assertEquals(system.name, lib.name);
        assertEquals(system.version, lib.version);
        var e = assertThrows(LibFuseUnavailableException.class, () -> LibFuse.load(List.of("libc.so.6")));
        assertTrue(e.getMessage().contains("libc.so.6: libfuse3 has no symbol"), e.getMessage());
    }

    @Test
    void aReleaseNewerThanAnyCheckedUsesTheNewestLayoutsAndSaysSo() {
        LibFuseVersion v = LibFuseVersion.select("3.19.0", 319, V3_17);
        assertTrue(v.newerThanKnown());
        assertFalse(LibFuseVersion.select("3.18.3", 318, V3_17).newerThanKnown());
        assertEquals(StructLayouts.of(LibFuseVersion.select("3.18.3", 318, V3_17)), StructLayouts.of(v));
    }

    @Test
    void theNewestSonameComesFirst() {
        assertEquals(List.of("libfuse3.so.4", "libfuse3.so.3"), LibFuse.SONAMES);
    }

    /** The version matrix (./test) names the release each run must load; a run on another one is void. */
    @Test
    void theReleaseTheTestRunNamesIsTheOneLoaded() {
        String expected = System.getenv("FUSE_PANAMA_EXPECT_LIBFUSE");
        assumeTrue(expected != null && !expected.isBlank(), "not run by the version matrix");
        LibFuse lib = LibFuse.get();
        assertEquals(expected, lib.packageVersion, "loaded " + lib.name);
    }
}
