package dev.fusepanama;

/** A view of a {@code struct statvfs} (statvfs(2)) in libfuse's memory. */
public interface StatVfs {
    StatVfs setBlockSize(long bsize);
    StatVfs setFragmentSize(long frsize);
    /** Size of the filesystem in fragment-size units. */
    StatVfs setBlocks(long blocks);
    StatVfs setBlocksFree(long bfree);
    /** Free blocks for unprivileged users. */
    StatVfs setBlocksAvailable(long bavail);
    StatVfs setFiles(long files);
    StatVfs setFilesFree(long ffree);
    StatVfs setFilesAvailable(long favail);
    StatVfs setFsid(long fsid);
    StatVfs setFlags(long flags);
    StatVfs setNameMax(long namemax);

    long blockSize();
    long fragmentSize();
    long blocks();
    long blocksFree();
    long blocksAvailable();
    long files();
    long filesFree();
    long filesAvailable();
    long nameMax();
}
