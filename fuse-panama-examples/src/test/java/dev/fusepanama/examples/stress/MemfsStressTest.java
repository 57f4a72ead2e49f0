package dev.fusepanama.examples.stress;

import dev.fusepanama.examples.Main;
import dev.fusepanama.testkit.ChildJvm;
import dev.fusepanama.testkit.StressSuite;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/** The stress and fault suite on memfs, served by {@code fuse-panama memfs} with its capacity as the store's size. */
class MemfsStressTest extends StressSuite {
    @Override
    protected List<String> command(Path store, Path mountpoint, long capacity) {
        return ChildJvm.command(Main.class, "memfs", mountpoint.toString(), "--max-size", Long.toString(capacity));
    }

    @Override
    protected Set<Feature> unsupported() {
        return Set.of(Feature.PERSISTENT);
    }
}
