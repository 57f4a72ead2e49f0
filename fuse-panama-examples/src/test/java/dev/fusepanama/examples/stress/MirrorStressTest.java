package dev.fusepanama.examples.stress;

import dev.fusepanama.examples.Main;
import dev.fusepanama.testkit.ChildJvm;
import dev.fusepanama.testkit.StressSuite;
import java.nio.file.Path;
import java.util.List;

/** The stress and fault suite on the mirror, served by {@code fuse-panama mirror} over the store. */
class MirrorStressTest extends StressSuite {
    @Override
    protected List<String> command(Path store, Path mountpoint, long capacity) {
        return ChildJvm.command(Main.class, "mirror", store.toString(), mountpoint.toString());
    }
}
