package dev.fusepanama.examples.mirror;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

class DescriptorSetTest {
    private static List<Integer> drained(DescriptorSet set) {
        List<Integer> out = new ArrayList<>();
        set.drain(out::add);
        return out;
    }

    @Test
    void keepsWhatWasAddedAndNotRemovedOnBothSidesOfTheDenseRange() {
        DescriptorSet set = new DescriptorSet();
        for (int fd : new int[] {0, 63, 64, 127, DescriptorSet.DENSE - 1, DescriptorSet.DENSE, 1 << 20}) {
            set.add(fd);
        }
        set.remove(63);
        set.remove(1 << 20);
        set.remove(5); // never added: nothing happens
        set.add(64); // twice: still once
        assertEquals(List.of(0, 64, 127, DescriptorSet.DENSE - 1, DescriptorSet.DENSE), drained(set));
        assertEquals(List.of(), drained(set), "drained means empty");
        assertThrows(IllegalArgumentException.class, () -> set.add(-1));
    }

    @Test
    void concurrentOpensAndReleasesOfNeighbouringDescriptorsLoseNothing() throws Exception {
        DescriptorSet set = new DescriptorSet();
        int threads = 4;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int first = t;
                // Interleaved numbers, so that the threads share every word of the array.
                done.add(pool.submit(() -> {
                    for (int round = 0; round < 2_000; round++) {
                        for (int fd = first; fd < 256; fd += threads) {
                            set.add(fd);
                        }
                        for (int fd = first; fd < 256; fd += threads) {
                            if (fd % 8 != 0 || round < 1_999) {
                                set.remove(fd);
                            }
                        }
                    }
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
        List<Integer> expected = new ArrayList<>();
        for (int fd = 0; fd < 256; fd += 8) {
            expected.add(fd);
        }
        assertEquals(expected, drained(set));
    }
}
