package dev.fusepanama.internal.bind;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fusepanama.internal.bind.LibFuseVersion.LoopSymbol;
import dev.fusepanama.internal.bind.LibFuseVersion.NewSymbol;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Which entry points each libfuse release gets, including releases not installed here. */
class LibFuseVersionTest {
    static final Set<String> V3_10 = Set.of("fuse_new", "fuse_new_31", "fuse_loop_mt", "fuse_loop_mt_32");
    static final Set<String> V3_14 = Set.of("fuse_new", "fuse_new_31", "fuse_loop_mt", "fuse_loop_mt_32",
            "fuse_loop_mt_312", "fuse_loop_cfg_create");
    static final Set<String> V3_17 = Set.of("_fuse_new", "fuse_new_31", "fuse_loop_mt", "fuse_loop_mt_312", "fuse_loop_cfg_create");

    @Test
    void libfuse310UsesTheV1LoopConfig() {
        LibFuseVersion v = LibFuseVersion.select(310, V3_10);
        assertEquals(NewSymbol.FUSE_NEW_31, v.newSymbol());
        assertEquals(LoopSymbol.LOOP_MT_32, v.loopSymbol());
        assertFalse(v.loopSymbol().usesConfigObject());
        assertFalse(v.wantExt());
    }

    @Test
    void libfuse314UsesTheConfigObjectAnd32BitWant() {
        LibFuseVersion v = LibFuseVersion.select(314, V3_14);
        assertEquals(NewSymbol.FUSE_NEW_31, v.newSymbol());
        assertEquals(LoopSymbol.LOOP_MT_312, v.loopSymbol());
        assertFalse(v.wantExt());
    }

    @Test
    void libfuse317UsesVersionedFuseNewAndWantExt() {
        LibFuseVersion v = LibFuseVersion.select(317, V3_17);
        assertEquals(NewSymbol.FUSE_NEW_317, v.newSymbol());
        assertEquals("_fuse_new", v.newSymbol().symbol);
        assertTrue(v.wantExt());
        assertEquals(LoopSymbol.LOOP_MT_312, v.loopSymbol());
    }

    @Test
    void libfuse317WithoutTheVersionedSymbolFallsBackToTheCompatAbi() {
        LibFuseVersion v = LibFuseVersion.select(318, Set.of("fuse_new_31", "fuse_loop_mt", "fuse_loop_cfg_create"));
        assertEquals(NewSymbol.FUSE_NEW_31, v.newSymbol());
        assertEquals(LoopSymbol.LOOP_MT_DEFAULT_312, v.loopSymbol());
        assertTrue(v.wantExt(), "3.17+ layout rules apply whatever symbol is called");
    }

    @Test
    void releasesBefore310AreRefusedWithAFix() {
        var e = assertThrows(UnsupportedOperationException.class, () -> LibFuseVersion.select(309, V3_10));
        assertTrue(e.getMessage().contains("3.9 is too old"), e.getMessage());
        assertTrue(e.getMessage().contains("3.10 or newer"), e.getMessage());
    }

    @Test
    void aLibraryWithoutFuseNewIsRefused() {
        var e = assertThrows(UnsupportedOperationException.class, () -> LibFuseVersion.select(314, Set.of("fuse_loop_mt_32")));
        assertTrue(e.getMessage().contains("fuse_new"), e.getMessage());
    }

    @Test
    void theInstalledLibraryLoadsAndAMissingOneSaysHowToFixIt() {
        LibFuse lib = LibFuse.get();
        assertTrue(lib.version.version() >= LibFuseVersion.MINIMUM);
        assertTrue(lib.packageVersion.startsWith(LibFuseVersion.display(lib.version.version())), lib.packageVersion);
        var e = assertThrows(LibFuseUnavailableException.class, () -> LibFuse.load("libfuse3-not-installed.so.3"));
        assertTrue(e.getMessage().contains("apt-get install fuse3"), e.getMessage());
        assertTrue(e.getMessage().contains(LibFuse.PROPERTY), e.getMessage());
    }
}
