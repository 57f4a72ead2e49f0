package dev.fusepanama;

/**
 * The extended attributes a {@code statx(2)} asks for ({@code struct statx}), filled by a
 * filesystem's {@code statx}: what {@link Stat} holds plus the birth time and the file's
 * attribute flags. {@link #mask()} says which fields are filled: set a {@code STATX_*} bit for
 * each ({@link #setFrom} sets the basic ones). A view like {@link Stat}: valid during the call.
 */
public interface Statx {
    /** {@code STATX_TYPE | STATX_MODE | ... | STATX_BLOCKS}: what a {@code stat(2)} returns. */
    int STATX_BASIC_STATS = 0x7ff;
    /** {@code STATX_BTIME}: the birth time. */
    int STATX_BTIME = 0x800;

    int mask();
    Statx setMask(int mask);
    int mode();
    Statx setMode(int mode);
    long ino();
    Statx setIno(long ino);
    long nlink();
    Statx setNlink(long nlink);
    int uid();
    Statx setUid(int uid);
    int gid();
    Statx setGid(int gid);
    long size();
    Statx setSize(long size);
    long blocks();
    Statx setBlocks(long blocks);
    int blksize();
    Statx setBlksize(int blksize);
    /** {@code STATX_ATTR_*} flags (immutable, append-only, ...), meaningful where {@link #attributesMask()} says so. */
    long attributes();
    Statx setAttributes(long attributes, long attributesMask);
    long attributesMask();
    Statx setRdev(int major, int minor);
    Statx setAtime(long seconds, int nanos);
    Statx setBtime(long seconds, int nanos);
    Statx setCtime(long seconds, int nanos);
    Statx setMtime(long seconds, int nanos);
    long btimeSeconds();
    int btimeNanos();

    /** Fills the basic fields from {@code st} and adds {@link #STATX_BASIC_STATS} to the mask. */
    default Statx setFrom(Stat st) {
        setMode(st.mode()).setIno(st.ino()).setNlink(st.nlink()).setUid(st.uid()).setGid(st.gid()).setSize(st.size())
                .setBlocks(st.blocks()).setBlksize((int) st.blksize());
        setAtime(st.atimeSeconds(), (int) st.atimeNanos()).setMtime(st.mtimeSeconds(), (int) st.mtimeNanos())
                .setCtime(st.ctimeSeconds(), (int) st.ctimeNanos());
        long rdev = st.rdev();
        setRdev((int) (((rdev >>> 32) & 0xfffff000L) | ((rdev >>> 8) & 0xfff)), (int) (((rdev >>> 12) & 0xffffff00L) | (rdev & 0xff)));
        return setMask(mask() | STATX_BASIC_STATS);
    }
}
