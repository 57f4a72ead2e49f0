package dev.fusepanama.vault.crypto;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The cipher-state pool: reuse, a bound, and that nothing it made escapes wiping. */
class PoolTest {
    private final List<Object> made = Collections.synchronizedList(new ArrayList<>());
    private final List<Object> wiped = Collections.synchronizedList(new ArrayList<>());
    private final Pool<Object> pool = new Pool<>(() -> {
        Object o = new Object();
        made.add(o);
        return o;
    }, wiped::add);

    @Test
    void aReturnedStateIsLentAgain() {
        Object a = pool.borrow();
        pool.release(a);
        assertSame(a, pool.borrow());
        assertEquals(1, made.size());
    }

    @Test
    void statesBeyondTheBoundAreWipedWhenReturned() {
        List<Object> borrowed = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            borrowed.add(pool.borrow());
        }
        borrowed.forEach(pool::release);
        int slots = Math.max(16, 2 * Runtime.getRuntime().availableProcessors());
        assertEquals(1000 - slots, wiped.size(), "all but a pool's worth wiped on return");
        pool.close();
        assertEquals(1000, wiped.size(), "closing wipes the rest");
    }

    @Test
    void aStateBorrowedWhileThePoolClosesIsWipedWhenItComesBack() {
        Object pooled = pool.borrow();
        Object busy = pool.borrow();
        pool.release(pooled);
        pool.close();
        assertEquals(List.of(pooled), wiped);
        pool.release(busy);
        assertEquals(List.of(pooled, busy), wiped);
        assertThrows(IllegalStateException.class, pool::borrow);
    }

    @Test
    void closingWhileThreadsBorrowAndReturnStillWipesEveryStateOnce() throws Exception {
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            threads.add(Thread.ofPlatform().start(() -> {
                try {
                    while (true) {
                        pool.release(pool.borrow());
                    }
                } catch (IllegalStateException closed) {
                    // the pool closed: this thread is done
                }
            }));
        }
        Thread.sleep(50);
        pool.close();
        for (Thread t : threads) {
            t.join();
        }
        Set<Object> once = Collections.newSetFromMap(new IdentityHashMap<>());
        once.addAll(wiped);
        assertEquals(wiped.size(), once.size(), "no state wiped twice");
        assertEquals(made.size(), wiped.size(), "every state made was wiped");
    }
}
