package dev.fusepanama.examples;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.ProviderNotFoundException;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.ZipException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The archive {@code fuse-panama zip} serves, opened with the JDK's zip filesystem (jdk.zipfs):
 * unix modes as Info-ZIP's zip stores them, read-only unless writable.
 *
 * <p>Three kinds of entry make zipfs unable to serve an archive at all: one with an empty name,
 * which it takes for its root (a file then, so nothing can be listed), one with a {@code .} or
 * {@code ..} element in its name, and one whose name is not UTF-8 (it refuses the whole archive
 * for either). Such an archive is served read-only from a copy whose central directory leaves
 * those entries out, each told with one warning; the copy lives in the temporary directory while
 * the archive is open (it holds all of the archive's data: the central directory comes last).
 * Entries zipfs serves but no Linux directory can hold (names over 255 bytes, a NUL) are the NIO
 * adapter's to leave out of listings.
 */
final class ZipArchive implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger("fuse-panama");

    // The records of the end of a zip archive (PKWARE's APPNOTE.TXT, 4.3.12 to 4.3.16), little-endian.
    private static final int CEN_SIG = 0x02014b50;
    private static final int CEN_SIZE = 46;
    private static final int END_SIG = 0x06054b50;
    private static final int END_SIZE = 22;
    private static final int LOC64_SIG = 0x07064b50;
    private static final int LOC64_SIZE = 20;
    private static final int END64_SIG = 0x06064b50;
    private static final int END64_SIZE = 56;

    final FileSystem zipfs;
    /** The copy served instead of the archive, or null. */
    private final Path copy;

    private ZipArchive(FileSystem zipfs, Path copy) {
        this.zipfs = zipfs;
        this.copy = copy;
    }

    /**
     * Opens {@code archive} (with {@code writable}, made if missing).
     *
     * @throws IOException saying why it cannot be served: not a zip archive, entries zipfs cannot
     *         serve in an archive to be written, or what the JDK said
     */
    static ZipArchive open(Path archive, boolean writable) throws IOException {
        IOException refused;
        try {
            FileSystem fs = newFileSystem(archive, writable);
            if (Files.isDirectory(fs.getPath("/"))) return new ZipArchive(fs, null);
            fs.close();
            refused = new IOException(archive + ": the JDK's zip filesystem sees no root directory in it");
        } catch (ProviderNotFoundException e) {
            throw new IOException(archive + " is not a zip archive (no zip end record at its end)", e);
        } catch (ZipException e) {
            refused = new IOException(archive + " cannot be opened as a zip archive: " + e.getMessage(), e);
        } catch (IOException e) {
            throw new IOException(archive + " cannot be opened: " + Arguments.reason(e), e);
        }
        Directory directory;
        try (FileChannel in = FileChannel.open(archive, StandardOpenOption.READ)) {
            directory = Directory.read(in);
        } catch (IOException unreadable) {
            throw refused;
        }
        if (directory.leftOut().isEmpty()) throw refused;
        if (writable) {
            throw new IOException(archive + " holds entries the JDK's zip filesystem cannot serve (" + directory.leftOut().getFirst()
                    + (directory.leftOut().size() > 1 ? ", and " + (directory.leftOut().size() - 1) + " more" : "")
                    + "): mount it without --writable, which serves the others");
        }
        for (String entry : directory.leftOut()) {
            LOG.warn("zip: {}: left out {}", archive, entry);
        }
        Path copy = Files.createTempFile("fuse-panama-zip-", ".zip");
        try {
            try (FileChannel in = FileChannel.open(archive, StandardOpenOption.READ);
                 FileChannel out = FileChannel.open(copy, StandardOpenOption.WRITE)) {
                directory.writeWithout(in, out);
            }
            FileSystem fs = newFileSystem(copy, false);
            LOG.info("zip: {} is served from a copy without those entries, {}, removed at the end", archive, copy);
            return new ZipArchive(fs, copy);
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(copy);
            throw e;
        }
    }

    private static FileSystem newFileSystem(Path archive, boolean writable) throws IOException {
        // Unix modes as Info-ZIP's zip stores them (executables stay executable; chmod works when
        // writable); an entry stored without one (Java's and Windows' zip tools) shows 0755.
        Map<String, String> env = new HashMap<>(Map.of("enablePosixFileAttributes", "true", "defaultPermissions", "rwxr-xr-x"));
        env.putAll(writable ? Map.of("create", "true") : Map.of("accessMode", "readOnly"));
        return FileSystems.newFileSystem(archive, env);
    }

    @Override
    public void close() throws IOException {
        try {
            zipfs.close();
        } finally {
            if (copy != null) Files.deleteIfExists(copy);
        }
    }

    /**
     * An archive's central directory: where it starts, the records kept, the end records after
     * it (the zip64 end record and its locator, if any, and the end record with its comment),
     * and the entries left out, each as a warning tells it.
     */
    private record Directory(long start, long length, byte[] kept, int keptCount, long trailerStart, byte[] trailer,
                             int locatorAt, int endAt, boolean zip64, List<String> leftOut) {
        static Directory read(FileChannel in) throws IOException {
            long size = in.size();
            int tailLength = (int) Math.min(size, END_SIZE + 0xFFFF);
            ByteBuffer tail = read(in, size - tailLength, tailLength);
            int end = -1;
            for (int i = tailLength - END_SIZE; i >= 0 && end < 0; i--) {
                if (tail.getInt(i) == END_SIG && i + END_SIZE + Short.toUnsignedInt(tail.getShort(i + 20)) == tailLength) end = i;
            }
            if (end < 0) throw new ZipException("no end record");
            long endStart = size - tailLength + end;
            long length = Integer.toUnsignedLong(tail.getInt(end + 12));
            long trailerStart = endStart;
            boolean zip64 = false;
            if (endStart >= LOC64_SIZE) {
                ByteBuffer locator = read(in, endStart - LOC64_SIZE, LOC64_SIZE);
                long end64 = locator.getLong(8);
                if (locator.getInt(0) == LOC64_SIG && end64 >= 0 && end64 + END64_SIZE <= endStart - LOC64_SIZE) {
                    ByteBuffer record = read(in, end64, END64_SIZE);
                    if (record.getInt(0) == END64_SIG) {
                        zip64 = true;
                        length = record.getLong(40);
                        trailerStart = end64;
                    }
                }
            }
            long start = trailerStart - length;
            if (length < 0 || start < 0 || length > Integer.MAX_VALUE - 16) throw new ZipException("bad central directory size");
            ByteBuffer records = read(in, start, (int) length);
            ByteArrayOutputStream kept = new ByteArrayOutputStream();
            int keptCount = 0;
            List<String> leftOut = new ArrayList<>();
            for (int p = 0; p < length; ) {
                if (p + CEN_SIZE > length || records.getInt(p) != CEN_SIG) throw new ZipException("bad central directory record");
                int nameLength = Short.toUnsignedInt(records.getShort(p + 28));
                int recordLength = CEN_SIZE + nameLength + Short.toUnsignedInt(records.getShort(p + 30))
                        + Short.toUnsignedInt(records.getShort(p + 32));
                if (p + recordLength > length) throw new ZipException("bad central directory record");
                byte[] name = new byte[nameLength];
                records.get(p + CEN_SIZE, name);
                String unservable = unservable(name);
                if (unservable == null) {
                    kept.write(records.array(), p, recordLength);
                    keptCount++;
                } else {
                    leftOut.add("the entry " + shown(name) + ": " + unservable);
                }
                p += recordLength;
            }
            byte[] trailer = read(in, trailerStart, (int) (size - trailerStart)).array();
            return new Directory(start, length, kept.toByteArray(), keptCount, trailerStart, trailer,
                    (int) (endStart - LOC64_SIZE - trailerStart), (int) (endStart - trailerStart), zip64, leftOut);
        }

        /**
         * Writes the archive of {@code in} to {@code out} with the kept records only: its
         * entries' data as they are (their offsets stay true), then the records, then the end
         * records with the new count and size (and the zip64 end record's new place).
         */
        void writeWithout(FileChannel in, FileChannel out) throws IOException {
            for (long done = 0; done < start; ) {
                done += in.transferTo(done, start - done, out);
            }
            out.write(ByteBuffer.wrap(kept), start);
            ByteBuffer t = ByteBuffer.wrap(trailer.clone()).order(ByteOrder.LITTLE_ENDIAN);
            if (zip64) {
                t.putLong(24, keptCount).putLong(32, keptCount).putLong(40, kept.length);
                t.putLong(locatorAt + 8, t.getLong(locatorAt + 8) + kept.length - length);
            }
            if (t.getShort(endAt + 8) != (short) 0xFFFF) t.putShort(endAt + 8, (short) keptCount).putShort(endAt + 10, (short) keptCount);
            if (t.getInt(endAt + 12) != 0xFFFFFFFF) t.putInt(endAt + 12, kept.length);
            out.write(t, start + kept.length);
        }

        private static ByteBuffer read(FileChannel in, long at, int length) throws IOException {
            ByteBuffer b = ByteBuffer.allocate(length).order(ByteOrder.LITTLE_ENDIAN);
            while (b.hasRemaining()) {
                if (in.read(b, at + b.position()) < 0) throw new ZipException("truncated");
            }
            return b.clear();
        }
    }

    /** Why zipfs cannot serve an archive with the entry {@code name} (its bytes), or null if it can. */
    static String unservable(byte[] name) {
        if (name.length == 0) return "an empty name, which the JDK's zip filesystem takes for its root directory";
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(name)).toString();
        } catch (CharacterCodingException e) {
            return "a name that is not UTF-8, for which the JDK's zip filesystem refuses the whole archive";
        }
        for (String element : text.split("/")) {
            if (element.equals(".") || element.equals("..")) {
                return "a '" + element + "' in its name, for which the JDK's zip filesystem refuses the whole archive";
            }
        }
        return null;
    }

    /** An entry's name for a warning: quoted, what is not printable escaped, at most 80 bytes of it. */
    private static String shown(byte[] name) {
        StringBuilder b = new StringBuilder("\"");
        for (int i = 0; i < Math.min(name.length, 80); i++) {
            int c = name[i] & 0xff;
            if (c < 0x20 || c >= 0x7f || c == '"' || c == '\\') b.append(String.format("\\x%02x", c));
            else b.append((char) c);
        }
        return b.append(name.length > 80 ? "...\"" : "\"").toString();
    }
}
