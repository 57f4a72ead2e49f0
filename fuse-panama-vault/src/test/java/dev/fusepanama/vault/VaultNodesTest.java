package dev.fusepanama.vault;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fusepanama.Errno;
import dev.fusepanama.ErrnoException;
import dev.fusepanama.Posix;
import dev.fusepanama.Stat;
import dev.fusepanama.inode.AttrReply;
import dev.fusepanama.inode.CreateReply;
import dev.fusepanama.inode.DataReply;
import dev.fusepanama.inode.DirReply;
import dev.fusepanama.inode.EmptyReply;
import dev.fusepanama.inode.EntryReply;
import dev.fusepanama.inode.Inode;
import dev.fusepanama.inode.LookupCounter;
import dev.fusepanama.inode.InodeFileSystem;
import dev.fusepanama.inode.Name;
import dev.fusepanama.inode.OpenReply;
import dev.fusepanama.inode.ReadlinkReply;
import dev.fusepanama.inode.Request;
import dev.fusepanama.inode.WriteReply;
import java.lang.foreign.Arena;
import java.lang.reflect.Proxy;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The vault's node bookkeeping (the library's node table), driven by calls as the kernel makes
 * them, with replies that record their answers: no mount, so it runs where FUSE does not.
 */
class VaultNodesTest {
    static final long ROOT = InodeFileSystem.ROOT;
    static final long NO = InodeFileSystem.NO_HANDLE;

    @TempDir Path cipher;
    VaultFileSystem fs;
    final Arena arena = Arena.ofShared();
    final Request req = (Request) Proxy.newProxyInstance(Request.class.getClassLoader(), new Class<?>[] {Request.class},
            (p, m, a) -> switch (m.getName()) {
                case "groups" -> new int[0];
                case "interrupted" -> false;
                default -> 0;
            });

    @BeforeEach
    void unlock() throws Exception {
        Vault.create(cipher, "pw".toCharArray(), 10);
        fs = Vault.unlock(cipher, "pw".toCharArray());
    }

    @AfterEach
    void close() {
        fs.close();
        arena.close();
    }

    /** A reply of any kind: records what it was answered with. */
    final class Fake {
        final Stat st = Stat.over(arena.allocate(Stat.SIZE, 8));
        final Map<String, Object[]> got = new HashMap<>();
        final List<Object[]> added = new ArrayList<>();
        /** Answers as when the kernel does not take the reply (the caller was interrupted): every send returns false. */
        boolean refused;
        /** Only the final send of a listing returns false (its entries were added). */
        boolean sendRefused;

        /** Whether a listing reply is READDIRPLUS's. */
        boolean plus;
        /** The readdirplus entries this batch counted, taken back if its send is refused. */
        final List<Long> counted = new ArrayList<>();

        /**
         * A reply that counts as the library does for a filesystem with a lookup counter: an
         * entry, a create and each readdirplus entry but "." and ".." counted as sent, taken back
         * when not taken.
         */
        @SuppressWarnings("unchecked")
        <T> T as(Class<T> kind) {
            LookupCounter counter = fs.lookups();
            return (T) Proxy.newProxyInstance(kind.getClassLoader(), new Class<?>[] {kind}, (p, m, a) -> {
                switch (m.getName()) {
                    case "attributes":
                        if (a == null) return st;
                        got.put("attributes", a);
                        return null;
                    case "add":
                        added.add(a);
                        if (a[1] instanceof Inode i && !isDot((byte[]) a[0])) {
                            if (refused) return true; // full: nothing counted
                            assertTrue(counter.count(i));
                            counted.add(i.nodeId());
                        }
                        return refused; // true: the batch is full
                    case "send":
                        if (a != null) got.put("send", a);
                        if (m.getReturnType() != boolean.class) return null;
                        boolean taken = !refused && !sendRefused;
                        if (!taken) counted.forEach(id -> counter.forget(id, 1));
                        return taken;
                    case "plus":
                        return plus;
                    case "isAnswered":
                        return !got.isEmpty();
                    case "entry", "created":
                        got.put(m.getName(), a);
                        Inode i = (Inode) a[0];
                        assertTrue(counter.count(i));
                        if (refused) counter.forget(i.nodeId(), 1);
                        return !refused;
                    default:
                        got.put(m.getName(), a);
                        return m.getReturnType() == boolean.class ? !refused : null;
                }
            });
        }

        private static boolean isDot(byte[] name) {
            return name[0] == '.' && (name.length == 1 || name.length == 2 && name[1] == '.');
        }

        long ino() {
            Object[] a = got.containsKey("entry") ? got.get("entry") : got.get("created");
            return ((Inode) a[0]).nodeId();
        }
    }

    static Name name(String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        return new Name() {
            public int length() {
                return b.length;
            }

            public byte byteAt(int i) {
                return b[i];
            }

            public byte[] bytes() {
                return b.clone();
            }

            public boolean is(byte[] other) {
                return Arrays.equals(b, other);
            }

            public String toString() {
                return s;
            }
        };
    }

    Fake lookup(long parent, String n) throws Exception {
        Fake f = new Fake();
        fs.lookup(req, parent, name(n), f.as(EntryReply.class));
        return f;
    }

    Fake getattr(long ino, long fh) throws Exception {
        Fake f = new Fake();
        fs.getattr(req, ino, fh, f.as(AttrReply.class));
        return f;
    }

    long mkdir(long parent, String n) throws Exception {
        Fake f = new Fake();
        fs.mkdir(req, parent, name(n), 0755, f.as(EntryReply.class));
        return f.ino();
    }

    Fake create(long parent, String n) throws Exception {
        Fake f = new Fake();
        fs.create(req, parent, name(n), Posix.S_IFREG | 0644, Posix.O_RDWR | Posix.O_CREAT, f.as(CreateReply.class));
        return f;
    }

    void write(long fh, String data) throws Exception {
        Fake f = new Fake();
        fs.write(req, 0, fh, ByteBuffer.wrap(data.getBytes(StandardCharsets.UTF_8)), 0, f.as(WriteReply.class));
    }

    String read(long fh) throws Exception {
        Fake f = new Fake();
        fs.read(req, 0, fh, 4096, 0, f.as(DataReply.class));
        ByteBuffer b = (ByteBuffer) f.got.get("data")[0];
        byte[] out = new byte[b.remaining()];
        b.get(out);
        return new String(out, StandardCharsets.UTF_8);
    }

    long open(long ino) throws Exception {
        Fake f = new Fake();
        fs.open(req, ino, Posix.O_RDWR, f.as(OpenReply.class));
        return (Long) f.got.get("open")[0];
    }

    EmptyReply empty() {
        return new Fake().as(EmptyReply.class);
    }

    long backingIno(Path p) throws Exception {
        return (Long) Files.getAttribute(p, "unix:ino", LinkOption.NOFOLLOW_LINKS);
    }

    /** The only cipher file (not gocryptfs.*) in {@code dir}. */
    Path onlyCipherFile(Path dir) throws Exception {
        try (var s = Files.list(dir)) {
            List<Path> l = s.filter(p -> !p.getFileName().toString().startsWith("gocryptfs.")).toList();
            assertEquals(1, l.size(), l.toString());
            return l.get(0);
        }
    }

    @Test
    void namesNumbersHardLinksAndUnlinkedOpenFiles() throws Exception {
        long d = mkdir(ROOT, "d");
        assertNotEquals(ROOT, d);
        Path dCipher = onlyCipherFile(cipher);
        assertEquals(backingIno(dCipher), getattr(d, NO).st.ino(), "st_ino is the ciphertext inode");
        Fake c = create(d, "f");
        long f = c.ino();
        long fh = (Long) c.got.get("created")[2];
        write(fh, "hello");
        assertEquals("hello", read(fh));
        assertEquals(5, getattr(f, NO).st.size());
        assertEquals(backingIno(onlyCipherFile(dCipher)), getattr(f, NO).st.ino());
        assertEquals(f, lookup(d, "f").ino(), "the same node again");

        Fake l = new Fake();
        fs.link(req, f, ROOT, name("g"), l.as(EntryReply.class));
        assertEquals(f, l.ino(), "a hard link is the same node");
        assertEquals(2, getattr(f, NO).st.nlink());

        fs.unlink(req, d, name("f"), empty());
        assertEquals(5, getattr(f, NO).st.size(), "found by its other name");
        fs.unlink(req, ROOT, name("g"), empty());
        assertEquals(5, getattr(f, NO).st.size(), "no name left: through the open handle");
        assertEquals(5, getattr(f, fh).st.size());
        assertThrows(ErrnoException.class, () -> lookup(d, "f"));

        // ftruncate and chmod of the unlinked open file
        Fake sa = new Fake();
        Stat in = Stat.over(arena.allocate(Stat.SIZE, 8));
        in.setSize(2);
        fs.setattr(req, f, in, InodeFileSystem.SET_SIZE, fh, sa.as(AttrReply.class));
        assertEquals(2, sa.st.size());
        assertEquals("he", read(fh));

        fs.release(req, f, fh, 0, empty());
        // still a node (the kernel holds it), but nothing reaches the file any more
        assertEquals(Errno.ENOENT, assertThrows(ErrnoException.class, () -> getattr(f, NO)).errno());
        fs.lookups().forget(f, 3); // create, lookup, link
        assertEquals(Errno.ENOENT, assertThrows(ErrnoException.class, () -> getattr(f, NO)).errno());

        fs.rmdir(req, ROOT, name("d"), empty());
        fs.lookups().forget(d, 1);
        assertThrows(ErrnoException.class, () -> getattr(d, NO));
    }

    @Test
    void renamesMoveNamesAndPathsFollow() throws Exception {
        long a = mkdir(ROOT, "a");
        long b = mkdir(a, "b");
        Fake c = create(b, "x".repeat(200)); // a long name
        long x = c.ino();
        fs.release(req, x, (Long) c.got.get("created")[2], 0, empty());
        long other = mkdir(ROOT, "other");
        fs.rename(req, ROOT, name("a"), other, name("a2"), 0, empty());
        assertEquals(x, lookup(b, "x".repeat(200)).ino(), "b's path follows its parent's rename");
        long fh = open(x);
        write(fh, "data");
        fs.release(req, x, fh, 0, empty());
        fs.rename(req, b, name("x".repeat(200)), ROOT, name("y"), 0, empty());
        assertEquals(x, lookup(ROOT, "y").ino());
        assertThrows(ErrnoException.class, () -> lookup(b, "x".repeat(200)));
        assertEquals(4, getattr(x, NO).st.size());

        // rename over a file: the replaced node keeps only what the kernel holds
        Fake z = create(ROOT, "z");
        long zi = z.ino();
        fs.release(req, zi, (Long) z.got.get("created")[2], 0, empty());
        fs.rename(req, ROOT, name("y"), ROOT, name("z"), 0, empty());
        assertEquals(x, lookup(ROOT, "z").ino());
        assertThrows(ErrnoException.class, () -> getattr(zi, NO), "replaced: no name, no handle");
        fs.lookups().forget(zi, 1);

        // exchange
        Fake w = create(ROOT, "w");
        long wi = w.ino();
        fs.release(req, wi, (Long) w.got.get("created")[2], 0, empty());
        fs.rename(req, ROOT, name("w"), ROOT, name("z"), Posix.RENAME_EXCHANGE, empty());
        assertEquals(wi, lookup(ROOT, "z").ino());
        assertEquals(x, lookup(ROOT, "w").ino());
        assertEquals(4, getattr(x, NO).st.size());
        assertEquals(0, getattr(wi, NO).st.size());

        // chmod by name, truncate by name
        Fake sa = new Fake();
        Stat in = Stat.over(arena.allocate(Stat.SIZE, 8));
        in.setMode(0600);
        in.setSize(1);
        fs.setattr(req, x, in, InodeFileSystem.SET_MODE | InodeFileSystem.SET_SIZE, NO, sa.as(AttrReply.class));
        assertEquals(0600, sa.st.mode() & 07777);
        assertEquals(1, sa.st.size());

        // symlink
        Fake sl = new Fake();
        fs.symlink(req, other, name("link"), "target/path".getBytes(StandardCharsets.UTF_8), sl.as(EntryReply.class));
        Fake rl = new Fake();
        fs.readlink(req, sl.ino(), rl.as(ReadlinkReply.class));
        assertArrayEquals("target/path".getBytes(StandardCharsets.UTF_8), (byte[]) rl.got.get("target")[0]);
    }

    /** Each kind of entry the kernel did not take is given back: one forget of what it did take then drops the node. */
    @Test
    void entriesTheKernelDidNotTakeAreNotCounted() throws Exception {
        Fake refusedCreate = new Fake();
        refusedCreate.refused = true;
        fs.create(req, ROOT, name("f"), Posix.S_IFREG | 0644, Posix.O_RDWR | Posix.O_CREAT, refusedCreate.as(CreateReply.class));
        long notTaken = refusedCreate.ino();
        assertEquals(Errno.ENOENT, assertThrows(ErrnoException.class, () -> getattr(notTaken, NO)).errno(),
                "a create the kernel did not take leaves no node (and no open handle)");
        long f = lookup(ROOT, "f").ino(); // one lookup taken

        Fake refusedLookup = new Fake();
        refusedLookup.refused = true;
        fs.lookup(req, ROOT, name("f"), refusedLookup.as(EntryReply.class));

        Fake od = new Fake();
        fs.opendir(req, ROOT, 0, od.as(OpenReply.class));
        long dh = (Long) od.got.get("open")[0];
        Fake lostListing = new Fake();
        lostListing.sendRefused = true;
        lostListing.plus = true;
        fs.readdir(req, ROOT, dh, 4096, 0, lostListing.as(DirReply.class));
        assertEquals(3, lostListing.added.size(), "., .. and f were added, then the send failed");
        Fake fullAtOnce = new Fake();
        fullAtOnce.refused = true;
        fullAtOnce.plus = true;
        fs.readdir(req, ROOT, dh, 4096, 2, fullAtOnce.as(DirReply.class));
        fs.releasedir(req, ROOT, dh, empty());

        getattr(f, NO);
        fs.lookups().forget(f, 1);
        assertEquals(Errno.ENOENT, assertThrows(ErrnoException.class, () -> getattr(f, NO)).errno(),
                "dropped at the one forget: nothing refused was counted");
    }

    @Test
    void readdirplusCountsItsEntriesAndReaddirShowsCiphertextInodes() throws Exception {
        long d = mkdir(ROOT, "d");
        long[] files = new long[3];
        for (int i = 0; i < 3; i++) {
            Fake c = create(d, "f" + i);
            files[i] = c.ino();
            fs.release(req, files[i], (Long) c.got.get("created")[2], 0, empty());
            fs.lookups().forget(files[i], 1);
            long dropped = files[i];
            assertThrows(ErrnoException.class, () -> getattr(dropped, NO), "forgotten: its number is no node's");
        }
        Fake od = new Fake();
        fs.opendir(req, d, 0, od.as(OpenReply.class));
        long dh = (Long) od.got.get("open")[0];
        Fake plus = new Fake();
        plus.plus = true;
        fs.readdir(req, d, dh, 4096, 0, plus.as(DirReply.class));
        assertEquals(5, plus.added.size());
        List<Long> ids = new ArrayList<>();
        for (Object[] e : plus.added.subList(2, 5)) ids.add(((Inode) e[1]).nodeId());
        for (long id : ids) getattr(id, NO);
        Fake plain = new Fake();
        fs.readdir(req, d, dh, 4096, 0, plain.as(DirReply.class));
        assertEquals(5, plain.added.size());
        for (int i = 2; i < 5; i++) {
            Object[] e = plain.added.get(i);
            assertArrayEquals((byte[]) plus.added.get(i)[0], (byte[]) e[0]);
            assertEquals(getattr(ids.get(i - 2), NO).st.ino(), (long) (Long) e[1], "d_ino is st_ino, the ciphertext inode");
        }
        fs.releasedir(req, d, dh, empty());
        for (long id : ids) fs.lookups().forget(id, 1);
        for (long id : ids) assertThrows(ErrnoException.class, () -> getattr(id, NO));
        fs.lookups().forget(d, 1);
        assertThrows(ErrnoException.class, () -> getattr(d, NO), "a directory goes once its known children went");
    }
}

