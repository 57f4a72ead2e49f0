package dev.fusepanama.testkit;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

/**
 * Directories listed while other threads create and unlink other names in them: every listing
 * must show each name nobody touches, exactly once, as on a kernel filesystem. {@code rsync},
 * backups and {@code rm -rf} all list directories that change under them.
 *
 * <p>Each round makes a fresh directory of {@link #UNTOUCHED} names, then four threads create and
 * unlink 50 names each in it, a change a millisecond, while four others list it {@link
 * #LISTINGS_PER_LISTER} times each. This found memfs losing 98 untouched names in one listing,
 * within the first 1,300 listings in each of six runs:
 * the kernel's cached listing ({@code FOPEN_CACHE_DIR}) ends a listing early when the position
 * it resumes from is not in the cache and the cache fills a whole number of pages (see {@code
 * MemoryFileSystem}'s {@code CACHING}).
 */
public final class ListingRace {
    /** Names in each round's directory that no thread changes. */
    public static final int UNTOUCHED = 300;
    private static final int MUTATORS = 4;
    private static final int LISTERS = 4;
    private static final int LISTINGS_PER_LISTER = 40;
    private static final int CHURNED_PER_MUTATOR = 50;

    /**
     * The pause of a mutator between two changes. Changes a millisecond apart leave a cached
     * listing time to complete between them, which is what memfs's loss needed; back-to-back
     * changes made it about ten times rarer.
     */
    private static final long PAUSE_NANOS = 1_000_000;

    private ListingRace() {}

    /**
     * Runs rounds in fresh subdirectories of {@code root} (removed again after each round) until
     * {@code listings} listings were made.
     *
     * @param root an empty directory of the filesystem under test
     * @param listings how many listings to make at least (a round makes 160)
     * @return how many were made
     * @throws java.util.concurrent.ExecutionException whose cause is an {@link AssertionError} naming
     *     the first listing that missed or repeated an untouched name, or the I/O error of a thread
     * @throws Exception if the round's files cannot be made or removed, or the wait is interrupted
     */
    public static int check(Path root, int listings) throws Exception {
        int made = 0;
        for (int round = 0; made < listings; round++) {
            made += round(root.resolve("race" + round));
        }
        return made;
    }

    private static int round(Path dir) throws Exception {
        Files.createDirectory(dir);
        Set<String> untouched = new HashSet<>();
        for (int i = 0; i < UNTOUCHED; i++) {
            String name = String.format("s%03d", i);
            untouched.add(name);
            Files.writeString(dir.resolve(name), "x");
        }
        AtomicBoolean stop = new AtomicBoolean();
        ExecutorService pool = Executors.newFixedThreadPool(MUTATORS + LISTERS);
        try {
            List<Future<?>> mutators = new ArrayList<>();
            for (int m = 0; m < MUTATORS; m++) {
                int id = m;
                mutators.add(pool.submit(() -> {
                    for (int k = 0; !stop.get(); k++) {
                        Path p = dir.resolve("m" + id + "_" + k % CHURNED_PER_MUTATOR);
                        if (k % (2 * CHURNED_PER_MUTATOR) < CHURNED_PER_MUTATOR) {
                            Files.writeString(p, "y");
                        } else {
                            Files.deleteIfExists(p);
                        }
                        LockSupport.parkNanos(PAUSE_NANOS);
                    }
                    return null;
                }));
            }
            List<Future<?>> listers = new ArrayList<>();
            for (int l = 0; l < LISTERS; l++) {
                listers.add(pool.submit(() -> {
                    for (int i = 0; i < LISTINGS_PER_LISTER; i++) {
                        compare(dir, untouched, i);
                    }
                    return null;
                }));
            }
            try {
                for (Future<?> f : listers) {
                    f.get();
                }
            } finally {
                stop.set(true);
                for (Future<?> f : mutators) {
                    f.get();
                }
            }
        } finally {
            stop.set(true);
            pool.shutdownNow();
        }
        try (DirectoryStream<Path> names = Files.newDirectoryStream(dir)) {
            for (Path p : names) {
                Files.delete(p);
            }
        }
        Files.delete(dir);
        return LISTERS * LISTINGS_PER_LISTER;
    }

    private static void compare(Path dir, Set<String> untouched, int listing) throws IOException {
        Set<String> seen = new HashSet<>();
        List<String> repeated = new ArrayList<>();
        try (DirectoryStream<Path> names = Files.newDirectoryStream(dir)) {
            for (Path p : names) {
                String name = p.getFileName().toString();
                if (untouched.contains(name) && !seen.add(name)) {
                    repeated.add(name);
                }
            }
        } catch (NoSuchFileException e) {
            throw new AssertionError(dir + " vanished while listed", e);
        }
        if (seen.size() != untouched.size() || !repeated.isEmpty()) {
            Set<String> missed = new HashSet<>(untouched);
            missed.removeAll(seen);
            throw new AssertionError("listing " + listing + " of " + dir + " while other names changed: missed "
                    + missed.size() + " of " + untouched.size() + " untouched names"
                    + (missed.isEmpty() ? "" : " (e.g. " + missed.stream().sorted().limit(5).toList() + ")")
                    + (repeated.isEmpty() ? "" : ", repeated " + repeated));
        }
    }
}
