package dev.fusepanama.testkit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;

/**
 * Marks a test class (or method) that mounts a FUSE filesystem: it needs {@code /dev/fuse}, for
 * most checks root, and seconds where a unit test takes milliseconds. Its JUnit tag
 * {@value #TAG} lets a run leave these out:
 * {@code mvn test -DexcludedGroups=mount} runs only the unit tests, as any user and without
 * /dev/fuse. In such a run {@link TestMount} refuses to mount, so a test that mounts without this
 * annotation fails, naming it, instead of passing for a unit test. Inherited: {@link PosixSuite}
 * and {@link PjdfstestSuite} carry it for their subclasses.
 */
@Documented
@Inherited
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
@Tag("mount")
public @interface MountTest {
    /** The JUnit tag, as {@code -DexcludedGroups} and {@code -Dgroups} name it. */
    String TAG = "mount";
}
