package dev.fusepanama.examples.stress;

import dev.fusepanama.testkit.ChildJvm;
import dev.fusepanama.testkit.StressSuite;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/** The stress and fault suite on the NIO adapter over the store, a directory of the default filesystem ({@link NioServer}). */
class NioStressTest extends StressSuite {
    @Override
    protected List<String> command(Path store, Path mountpoint, long capacity) {
        return ChildJvm.command(NioServer.class, store.toString(), mountpoint.toString());
    }

    /** The JDK's default provider takes names as UTF-8 strings: one that is not answers EILSEQ (the adapter's README). */
    @Override
    protected Set<Feature> unsupported() {
        return Set.of(Feature.NON_UTF8_NAMES);
    }
}
