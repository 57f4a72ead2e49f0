package dev.fusepanama.vault.crypto;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.nio.ByteBuffer;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.junit.jupiter.api.Test;

/** The master key: what it derives, and that closing it leaves no key material in anything it holds, on any thread. */
class MasterKeyTest {
    private static final byte[] KEY = new byte[32];

    static {
        new Random(8).nextBytes(KEY);
    }

    @Test
    void closingZeroesEveryByteArrayTheKeyHoldsIncludingCipherStateOtherThreadsUsed() throws Exception {
        MasterKey key = MasterKey.of(KEY, 255);
        byte[] fileId = ContentCipher.newFileId();
        byte[] iv = DirIv.random();
        Runnable use = () -> {
            key.content().encryptBlock(new byte[100], 1, fileId);
            ByteBuffer direct = ByteBuffer.allocateDirect(200);
            key.content().encryptBlock(ByteBuffer.allocateDirect(100), 2, fileId, direct);
            try {
                key.content().decryptBlock(direct.flip(), 2, fileId, ByteBuffer.allocateDirect(100));
            } catch (CorruptDataException e) {
                throw new AssertionError(e);
            }
            key.names().encrypt("name".getBytes(), iv);
        };
        use.run();
        Thread a = new Thread(use);
        Thread b = new Thread(use);
        a.start();
        b.start();
        a.join();
        b.join();

        Map<byte[], String> arrays = byteArrays(key);
        assertTrue(arrays.size() >= 10, "found " + arrays.values());
        assertTrue(arrays.values().stream().anyMatch(p -> p.endsWith("masks")), "EME's mask table is among them");
        assertTrue(arrays.keySet().stream().anyMatch(a1 -> !SecureBytes.isZero(a1)), "key material before closing");

        key.close();
        for (Map.Entry<byte[], String> e : arrays.entrySet()) {
            assertTrue(SecureBytes.isZero(e.getKey()), e.getValue() + " is not wiped");
        }
        assertTrue(key.isClosed());
        key.close();
    }

    @Test
    void theCallersArrayIsCopiedNotKept() throws Exception {
        byte[] mine = KEY.clone();
        byte[] stored;
        try (MasterKey key = MasterKey.of(mine, 255)) {
            java.util.Arrays.fill(mine, (byte) 0);
            stored = key.content().encryptBlock(new byte[] {1, 2, 3}, 0, new byte[16]);
        }
        try (MasterKey again = MasterKey.of(KEY, 255)) {
            assertArrayEquals(new byte[] {1, 2, 3}, again.content().decryptBlock(stored, 0, new byte[16]));
        }
        assertThrows(IllegalArgumentException.class, () -> MasterKey.of(new byte[16], 255));
    }

    /** Content and names use different keys, both derived, neither the master key itself. */
    @Test
    void contentAndNameKeysAreDistinctHkdfDerivationsOfTheMasterKey() {
        byte[] contentKey = Hkdf.sha256(KEY, Hkdf.CONTENT_INFO, 32);
        byte[] nameKey = Hkdf.sha256(KEY, Hkdf.NAMES_INFO, 32);
        assertFalse(java.util.Arrays.equals(contentKey, nameKey));
        byte[] iv = DirIv.random();
        try (MasterKey key = MasterKey.of(KEY, 255); Eme byNameKey = new Eme(nameKey); Eme byMasterKey = new Eme(KEY)) {
            byte[] padded = "x\u000f\u000f\u000f\u000f\u000f\u000f\u000f\u000f\u000f\u000f\u000f\u000f\u000f\u000f\u000f".getBytes();
            byte[] encrypted = key.names().encrypt("x".getBytes(), iv);
            assertArrayEquals(Raw64.encode(byNameKey.encrypt(iv, padded)), encrypted);
            assertFalse(java.util.Arrays.equals(Raw64.encode(byMasterKey.encrypt(iv, padded)), encrypted));
        }
        assertEquals(32, contentKey.length);
    }

    /** Every byte[] reachable from {@code root} through objects of this package, named by its field path. */
    private static Map<byte[], String> byteArrays(Object root) throws IllegalAccessException {
        Map<byte[], String> found = new IdentityHashMap<>();
        walk(root, root.getClass().getSimpleName(), found, Collections.newSetFromMap(new IdentityHashMap<>()));
        return found;
    }

    private static void walk(Object o, String path, Map<byte[], String> found, java.util.Set<Object> seen) throws IllegalAccessException {
        if (o == null || !seen.add(o)) {
            return;
        }
        if (o instanceof byte[] bytes) {
            found.put(bytes, path);
            return;
        }
        if (o instanceof AtomicReferenceArray<?> slots) {
            for (int i = 0; i < slots.length(); i++) {
                walk(slots.get(i), path + "[" + i + "]", found, seen);
            }
            return;
        }
        if (!o.getClass().getPackageName().equals(MasterKey.class.getPackageName())) {
            return;
        }
        List<Field> fields = new ArrayList<>();
        for (Class<?> c = o.getClass(); c != null; c = c.getSuperclass()) {
            fields.addAll(List.of(c.getDeclaredFields()));
        }
        for (Field f : fields) {
            if (Modifier.isStatic(f.getModifiers()) || f.getType().isPrimitive()) {
                continue;
            }
            f.setAccessible(true);
            walk(f.get(o), path + "." + f.getName(), found, seen);
        }
    }
}
