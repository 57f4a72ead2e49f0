package dev.fusepanama.internal.view;

import dev.fusepanama.DirFiller;
import dev.fusepanama.Stat;
import dev.fusepanama.internal.codec.NameCodec;
import java.lang.invoke.MethodHandle;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link DirFiller} over readdir's {@code (void *buf, fuse_fill_dir_t filler)}. Names are encoded
 * straight into this thread's scratch memory and handed to the filler with a downcall handle
 * bound to the filler's address ({@link FillerHandles}), so an entry costs no allocation.
 */
public final class NativeDirFiller implements DirFiller {
    private static final Logger LOG = LoggerFactory.getLogger(NativeDirFiller.class);
    /** {@code FUSE_FILL_DIR_PLUS} (fuse.h). */
    private static final int FILL_DIR_PLUS = 1 << 1;

    private final long name;
    private final long nameCapacity;
    private final NativeStat attributes;
    private long buffer;
    private MethodHandle filler;

    /** @param name scratch for one NUL-terminated name; @param stat scratch for one struct stat */
    public NativeDirFiller(long name, long nameCapacity, long stat) {
        this.name = name;
        this.nameCapacity = nameCapacity;
        this.attributes = new NativeStat().at(stat);
    }

    public NativeDirFiller at(long buffer, MethodHandle filler) {
        this.buffer = buffer;
        this.filler = filler;
        return this;
    }

    @Override
    public boolean add(String entry, long nextOffset) {
        return fill(entry, nextOffset, 0L, 0);
    }

    @Override
    public boolean add(String entry, long nextOffset, Stat attrs) {
        if (attrs == null) {
            return fill(entry, nextOffset, 0L, 0);
        }
        if (!(attrs instanceof NativeStat s)) {
            throw new IllegalArgumentException("attributes must come from DirFiller.attributes()");
        }
        return fill(entry, nextOffset, s.address(), FILL_DIR_PLUS);
    }

    @Override
    public Stat attributes() {
        attributes.clear();
        return attributes;
    }

    private boolean fill(String entry, long nextOffset, long stat, int flags) {
        if (NameCodec.encodeTo(entry, name, nameCapacity) < 0) {
            LOG.warn("readdir: skipped an entry whose name is longer than {} bytes", nameCapacity - 1);
            return false;
        }
        try {
            return (int) filler.invokeExact(buffer, name, stat, nextOffset, flags) != 0;
        } catch (Throwable t) {
            throw new IllegalStateException("fuse_fill_dir_t failed", t);
        }
    }
}
