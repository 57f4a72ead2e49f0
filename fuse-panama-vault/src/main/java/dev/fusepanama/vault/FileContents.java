package dev.fusepanama.vault;

import static dev.fusepanama.Errno.EIO;
import static dev.fusepanama.Errno.EOPNOTSUPP;
import static dev.fusepanama.Posix.FALLOC_FL_KEEP_SIZE;
import static dev.fusepanama.Posix.FALLOC_FL_PUNCH_HOLE;
import static dev.fusepanama.vault.LibcCalls.check;
import static dev.fusepanama.vault.LibcCalls.preadFully;
import static dev.fusepanama.vault.LibcCalls.pwriteFully;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;

import dev.fusepanama.ErrnoException;
import dev.fusepanama.libc.Libc;
import dev.fusepanama.vault.crypto.ContentCipher;
import dev.fusepanama.vault.crypto.CorruptDataException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The plaintext of a regular file over its ciphertext file: a header with the file's id, then
 * authenticated blocks ({@link ContentCipher}). Reads decrypt whole blocks; writes and truncation
 * re-encrypt the blocks they touch, reading a partly covered block first. The callers hold the
 * node's content lock, shared for reads and alone for changes.
 */
final class FileContents {
    /** One logger for the whole vault, the one an application configures. */
    private static final Logger LOG = LoggerFactory.getLogger(VaultFileSystem.class);
    private static final int PLAIN_BLOCK = ContentCipher.PLAIN_BLOCK;
    private static final int CIPHER_BLOCK = ContentCipher.CIPHER_BLOCK;
    private static final int HEADER = ContentCipher.HEADER_SIZE;
    private static final int SEEK_END = 2;

    private final String cipherDir;
    private final ContentCipher content;
    private final CipherDir store;
    private final Attributes attrs;
    /** Whether the cipher directory's filesystem preallocates ({@link #reserve}); false once it said it cannot. */
    private volatile boolean preallocation = true;

    FileContents(String cipherDir, ContentCipher content, CipherDir store, Attributes attrs) {
        this.cipherDir = cipherDir;
        this.content = content;
        this.store = store;
        this.attrs = attrs;
    }

    /** The file id of {@code h}'s file from its header; null if the file is empty. Under the content lock. */
    private byte[] fileId(ThreadBuffers s, OpenFile h) throws ErrnoException {
        byte[] id = h.node.fileId;
        if (id != null) return id;
        long n = check(Libc.pread(h.fd, s.small, HEADER, 0));
        if (n == 0) return null;
        if (n < HEADER) {
            LOG.error("vault {}: {} is truncated inside its header ({} bytes)", cipherDir, store.plainPath(h.node), n);
            throw new ErrnoException(EIO);
        }
        try {
            id = ContentCipher.parseHeader(s.small.asSlice(0, HEADER).toArray(JAVA_BYTE));
        } catch (CorruptDataException e) {
            LOG.error("vault {}: {} has a bad file header: {}", cipherDir, store.plainPath(h.node), e.getMessage());
            throw new ErrnoException(EIO);
        }
        h.node.fileId = id;
        return id;
    }

    /**
     * The plaintext of {@code size} bytes at {@code offset} of the open file {@code h}, decrypted
     * into this thread's plaintext buffer (shorter at the end of the file). Under the content read lock.
     */
    ByteBuffer readLocked(ThreadBuffers s, OpenFile h, long size, long offset) throws ErrnoException {
        byte[] id = fileId(s, h);
        if (id == null || size == 0) {
            return s.plain.clear().limit(0);
        }
        long first = offset / PLAIN_BLOCK;
        long last = (offset + Math.min(size, ThreadBuffers.MAX_IO) - 1) / PLAIN_BLOCK;
        int blocks = (int) (last - first + 1);
        long got = preadFully(h.fd, s.cipher, (long) blocks * CIPHER_BLOCK, HEADER + first * CIPHER_BLOCK);
        ByteBuffer plain = s.plain.clear();
        ByteBuffer cipher = s.cipherBuffer;
        for (int b = 0; b < blocks; b++) {
            long start = (long) b * CIPHER_BLOCK;
            if (start >= got) break;
            int len = (int) Math.min(CIPHER_BLOCK, got - start);
            decrypt(h.node, cipher.limit((int) start + len).position((int) start), first + b, id, plain);
        }
        plain.flip();
        int skip = (int) (offset - first * PLAIN_BLOCK);
        if (skip >= plain.limit()) {
            return plain.limit(0);
        }
        plain.position(skip).limit((int) Math.min(plain.limit(), skip + size));
        return plain;
    }

    /**
     * Decrypts one ciphertext block into {@code out}, failing with EIO if it is not authentic,
     * with one log line per file and block (the kernel retries a failed read page by page, and
     * a program may retry forever).
     */
    private void decrypt(Node n, ByteBuffer cipher, long block, byte[] fileId, ByteBuffer out) throws ErrnoException {
        try {
            content.decryptBlock(cipher, block, fileId, out);
        } catch (CorruptDataException e) {
            if (store.reportOnce(n.backingIno + " block " + block)) {
                LOG.error("vault {}: {} block {} fails authentication ({}): reads of it answer EIO", cipherDir, store.plainPath(n),
                        block, e.getMessage());
            }
            throw new ErrnoException(EIO);
        }
    }

    /** The plaintext size of the open file, from its ciphertext size. */
    private long plainSize(OpenFile h, long cipherSize) throws ErrnoException {
        if (!ContentCipher.isValidCipherSize(cipherSize)) {
            attrs.reportCutShort(h.node, cipherSize);
            throw new ErrnoException(EIO);
        }
        return ContentCipher.plainSize(cipherSize);
    }

    /**
     * Makes sure the ciphertext file has room for bytes {@code from} to {@code to} before any of
     * them is written ({@code fallocate} keeping the size, as gocryptfs does): a write that meets
     * a full disk then fails before it has changed anything, instead of leaving a block half
     * rewritten (no longer authentic: data written before lost) and the size past what was
     * acknowledged. Where the filesystem has no preallocation, the write goes ahead as it is.
     */
    private void reserve(OpenFile h, long from, long to) throws ErrnoException {
        if (!preallocation || to <= from) return;
        int rc = Libc.fallocate(h.fd, FALLOC_FL_KEEP_SIZE, from, to - from);
        if (rc == -EOPNOTSUPP) {
            preallocation = false;
            LOG.info("vault {}: its filesystem cannot preallocate; a write that meets a full disk may damage the block it rewrites",
                    cipherDir);
        } else if (rc < 0) {
            // What a failed fallocate took past the end stays taken on ext4: given back.
            long end = Libc.lseek(h.fd, 0, SEEK_END);
            if (end >= 0 && to > Math.max(from, end)) {
                Libc.fallocate(h.fd, FALLOC_FL_KEEP_SIZE | FALLOC_FL_PUNCH_HOLE, Math.max(from, end), to - Math.max(from, end));
            }
            throw new ErrnoException(-rc);
        }
    }

    /**
     * Runs a change of the ciphertext file that was {@code cipherSize} bytes; if it fails, puts the
     * size back, so that a failed write leaves nothing the writer was not told of, and gives back
     * room reserved past the end. Not shorter than {@link Change#keep}: an old partial last block
     * rewritten whole (padded, or merged with new data) would be cut, no longer authentic, where
     * whole it holds what it held before.
     */
    private void changing(OpenFile h, long cipherSize, long reservedTo, Change change) throws ErrnoException {
        long[] keep = {cipherSize};
        try {
            change.run(keep);
        } catch (ErrnoException | RuntimeException e) {
            long now = Libc.lseek(h.fd, 0, SEEK_END);
            long back = Math.max(cipherSize, keep[0]);
            if (now > back && Libc.ftruncate(h.fd, back) == 0 && back == 0) h.node.fileId = null;
            if (preallocation && reservedTo > back) {
                Libc.fallocate(h.fd, FALLOC_FL_KEEP_SIZE | FALLOC_FL_PUNCH_HOLE, back, reservedTo - back);
            }
            throw e;
        }
    }

    @FunctionalInterface
    private interface Change {
        /** The change; it raises {@code keep[0]} to the end of a block it rewrote whole in place. */
        void run(long[] keep) throws ErrnoException;
    }

    /**
     * The file id, writing a new header first if the ciphertext file of {@code cipherSize} bytes
     * is empty: an empty file has no header whatever the node remembers, and a block written
     * after a header never written would leave zeros where the header belongs. Under the content
     * write lock.
     */
    private byte[] fileIdForWrite(ThreadBuffers s, OpenFile h, long cipherSize) throws ErrnoException {
        if (cipherSize > 0) {
            byte[] id = fileId(s, h);
            if (id != null) return id;
        }
        byte[] id = ContentCipher.newFileId();
        MemorySegment.copy(ContentCipher.header(id), 0, s.small, JAVA_BYTE, 0, HEADER);
        pwriteFully(h.fd, s.small, HEADER, 0);
        h.node.fileId = id;
        return id;
    }

    /**
     * Writes {@code data} at {@code offset}: whole blocks are encrypted as they are, a block only
     * partly covered is read, decrypted, merged and encrypted anew, and a write past the end first
     * completes the old last block with zeros (a partial block may only be the last), leaving
     * the blocks in between as holes, which read as zeros.
     */
    void writeLocked(ThreadBuffers s, OpenFile h, ByteBuffer data, long offset) throws ErrnoException {
        int count = data.remaining();
        if (count == 0) return;
        long cipherSize = check(Libc.lseek(h.fd, 0, SEEK_END));
        long size = plainSize(h, cipherSize);
        long first = offset / PLAIN_BLOCK;
        long last = (offset + count - 1) / PLAIN_BLOCK;
        long lastOld = size == 0 ? -1 : (size - 1) / PLAIN_BLOCK;
        boolean pad = size % PLAIN_BLOCK != 0 && first > lastOld;
        // What is written: the header of an empty file, the old last block padded, the blocks of
        // the data; not the holes between.
        long lastEnd = Math.min((last + 1) * PLAIN_BLOCK, Math.max(size, offset + count));
        long from = HEADER + first * CIPHER_BLOCK;
        if (pad) {
            long padFrom = HEADER + lastOld * CIPHER_BLOCK;
            if (padFrom + CIPHER_BLOCK == from) from = padFrom;
            else reserve(h, padFrom, padFrom + CIPHER_BLOCK);
        }
        if (cipherSize == 0) {
            if (from == HEADER) from = 0;
            else reserve(h, 0, HEADER);
        }
        long to = HEADER + last * CIPHER_BLOCK + (lastEnd - last * PLAIN_BLOCK) + ContentCipher.BLOCK_OVERHEAD;
        reserve(h, from, to);
        changing(h, cipherSize, to, keep -> writeBlocks(s, h, data, offset, cipherSize, size, pad, keep));
    }

    /** {@link #writeLocked} once the room for it is reserved. */
    private void writeBlocks(ThreadBuffers s, OpenFile h, ByteBuffer data, long offset, long cipherSize, long size, boolean pad,
            long[] keep) throws ErrnoException {
        int count = data.remaining();
        byte[] id = fileIdForWrite(s, h, cipherSize);
        long first = offset / PLAIN_BLOCK;
        long last = (offset + count - 1) / PLAIN_BLOCK;
        if (pad) {
            padLastBlock(s, h, id, size);
            keep[0] = HEADER + (size / PLAIN_BLOCK + 1) * CIPHER_BLOCK;
        }
        // The old partial last block, rewritten in place with the first of these blocks: one
        // write with the rest (a process killed between two would leave it cut), and if that
        // write stops after it, the size is put back no shorter than it.
        boolean rewritesLast = size % PLAIN_BLOCK != 0 && first == size / PLAIN_BLOCK;
        ByteBuffer cipher = s.cipherBuffer.clear();
        ByteBuffer block = s.plain.clear();
        for (long b = first; b <= last; b++) {
            long blockStart = b * PLAIN_BLOCK;
            int from = (int) Math.max(offset - blockStart, 0);
            int to = (int) Math.min(offset + count - blockStart, PLAIN_BLOCK);
            ByteBuffer plainBlock;
            if (from == 0 && (to == PLAIN_BLOCK || blockStart + to >= size)) {
                plainBlock = data.slice(data.position() + (int) (blockStart + from - offset), to - from);
            } else {
                // Part of a block that has data: read it, merge.
                block.clear();
                if (blockStart < size) {
                    readBlock(s, h, id, b, block);
                }
                int oldLen = block.position();
                int newLen = Math.max(oldLen, to);
                for (int i = oldLen; i < from; i++) block.put(i, (byte) 0);
                block.put(from, data, data.position() + (int) (blockStart + from - offset), to - from);
                plainBlock = block.position(0).limit(newLen);
            }
            content.encryptBlock(plainBlock, b, id, cipher);
            if (b == first && rewritesLast) keep[0] = Math.max(keep[0], HEADER + first * CIPHER_BLOCK + cipher.position());
        }
        cipher.flip();
        long at = HEADER + first * CIPHER_BLOCK;
        long done = 0;
        while (done < cipher.limit()) {
            long n = Libc.pwrite(h.fd, s.cipher.asSlice(done), cipher.limit() - done, at + done);
            if (n < 0) {
                if (at + done < keep[0]) keep[0] = cipherSize; // the old last block not rewritten whole: it is lost either way
                throw new ErrnoException((int) -n);
            }
            done += n;
        }
    }

    /** Reads and decrypts block {@code b} into {@code out} (from its position), using the cipher buffer's tail. */
    private void readBlock(ThreadBuffers s, OpenFile h, byte[] id, long b, ByteBuffer out) throws ErrnoException {
        long tail = s.cipher.byteSize() - CIPHER_BLOCK;
        MemorySegment at = s.cipher.asSlice(tail, CIPHER_BLOCK);
        long got = preadFully(h.fd, at, CIPHER_BLOCK, HEADER + b * CIPHER_BLOCK);
        if (got == 0) return;
        decrypt(h.node, at.asByteBuffer().limit((int) got), b, id, out);
    }

    /** Completes a partial last block with zeros, so that blocks after it can be written. */
    private void padLastBlock(ThreadBuffers s, OpenFile h, byte[] id, long size) throws ErrnoException {
        long b = size / PLAIN_BLOCK;
        ByteBuffer block = s.plain.clear();
        readBlock(s, h, id, b, block);
        for (int i = block.position(); i < PLAIN_BLOCK; i++) block.put(i, (byte) 0);
        block.position(0).limit(PLAIN_BLOCK);
        ByteBuffer cipher = s.cipherBuffer.clear();
        content.encryptBlock(block, b, id, cipher);
        pwriteFully(h.fd, s.cipher, cipher.position(), HEADER + b * CIPHER_BLOCK);
    }

    void truncateLocked(ThreadBuffers s, OpenFile h, long size) throws ErrnoException {
        long cipherSize = check(Libc.lseek(h.fd, 0, SEEK_END));
        if (size == 0) { // also a file cut short, which answers EIO to everything else
            if (cipherSize == 0) return;
            check(Libc.ftruncate(h.fd, 0)); // an empty file has no header
            h.node.fileId = null;
            return;
        }
        long old = plainSize(h, cipherSize);
        if (size == old) return;
        if (size < old) {
            int keep = (int) (size % PLAIN_BLOCK);
            if (keep != 0) {
                byte[] id = fileId(s, h);
                long b = size / PLAIN_BLOCK;
                // Its new last block is written again, and may be a hole that needs room.
                reserve(h, HEADER + b * CIPHER_BLOCK, HEADER + b * CIPHER_BLOCK + keep + ContentCipher.BLOCK_OVERHEAD);
                ByteBuffer block = s.plain.clear();
                readBlock(s, h, id, b, block);
                block.position(0).limit(keep);
                ByteBuffer cipher = s.cipherBuffer.clear();
                content.encryptBlock(block, b, id, cipher);
                pwriteFully(h.fd, s.cipher, cipher.position(), HEADER + b * CIPHER_BLOCK);
            }
            check(Libc.ftruncate(h.fd, ContentCipher.cipherSize(size)));
            return;
        }
        // Growing: whole blocks past the old end become holes; a partial new last block is written
        // as zeros. Within the old last block it is a write of zeros; else the old last block is
        // padded and the new one written, both reserved first: a second step that failed would
        // leave the first, the old block rewritten and the size past what was asked for.
        long lastStart = (size - 1) / PLAIN_BLOCK * PLAIN_BLOCK;
        if (old > lastStart) {
            writeLocked(s, h, ByteBuffer.allocate((int) (size - old)), old);
            return;
        }
        if (cipherSize == 0) reserve(h, 0, HEADER);
        if (old % PLAIN_BLOCK != 0) {
            long b = old / PLAIN_BLOCK;
            reserve(h, HEADER + b * CIPHER_BLOCK, HEADER + (b + 1) * CIPHER_BLOCK);
        }
        if (size % PLAIN_BLOCK != 0) {
            long from = HEADER + lastStart / PLAIN_BLOCK * CIPHER_BLOCK;
            reserve(h, from, from + (size - lastStart) + ContentCipher.BLOCK_OVERHEAD);
        }
        changing(h, cipherSize, ContentCipher.cipherSize(size), keep -> {
            byte[] id = fileIdForWrite(s, h, cipherSize);
            if (old % PLAIN_BLOCK != 0) {
                padLastBlock(s, h, id, old);
                keep[0] = HEADER + (old / PLAIN_BLOCK + 1) * CIPHER_BLOCK;
            }
            if (size % PLAIN_BLOCK == 0) {
                check(Libc.ftruncate(h.fd, ContentCipher.cipherSize(size)));
            } else {
                writeLocked(s, h, ByteBuffer.allocate((int) (size - lastStart)), lastStart);
            }
        });
    }
}
