package dev.fusepanama;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fusepanama.AccessTimes.Rule;
import org.junit.jupiter.api.Test;

/** The kernel's atime rules, read from mountinfo's per-mount options (remounts through a mount: memfs's AccessTimeRulesTest). */
class AccessTimesTest {
    private static final long S = 1_000_000_000L;
    private static final long DAY = 24 * 3600 * S;

    @Test
    void mountinfoOptionsNameTheRule() {
        assertEquals(new AccessTimes(Rule.RELATIVE, true, false), AccessTimes.ofMountOptions("rw,nosuid,nodev,relatime"));
        assertEquals(new AccessTimes(Rule.NEVER, true, false), AccessTimes.ofMountOptions("rw,noatime"));
        assertEquals(new AccessTimes(Rule.ALWAYS, false, true), AccessTimes.ofMountOptions("ro,nosuid,nodiratime"));
        assertEquals(AccessTimes.DEFAULT, AccessTimes.ofMountOptions("rw,relatime"));
        assertEquals(AccessTimes.DEFAULT, AccessTimes.ofMountOptions("rw,relatime,relatime"), "a repeated word");
    }

    @Test
    void relatimeUpdatesWhenNotAfterAChangeOrADayOld() {
        AccessTimes r = AccessTimes.DEFAULT;
        long now = 100 * DAY;
        assertTrue(r.needsUpdate(false, now - 10 * S, now - 10 * S, now - 20 * S, now), "atime equal to mtime");
        assertTrue(r.needsUpdate(false, now - 10 * S, now - 20 * S, now - 5 * S, now), "ctime after atime");
        assertFalse(r.needsUpdate(false, now - 10 * S, now - 20 * S, now - 20 * S, now), "read since the last change");
        assertTrue(r.needsUpdate(false, now - DAY, now - 2 * DAY, now - 2 * DAY, now), "a day old");
        assertFalse(r.needsUpdate(false, now, now - S, now - S, now), "already now");
    }

    @Test
    void strictNeverDirectoriesAndReadOnly() {
        long now = 100 * DAY;
        AccessTimes strict = new AccessTimes(Rule.ALWAYS, true, false);
        assertTrue(strict.needsUpdate(false, now - S, now - 9 * S, now - 9 * S, now));
        assertTrue(strict.everyRead());
        assertFalse(new AccessTimes(Rule.NEVER, true, false).needsUpdate(false, now - DAY, now, now, now));
        assertFalse(new AccessTimes(Rule.ALWAYS, false, false).needsUpdate(true, now - S, now, now, now), "nodiratime");
        assertTrue(new AccessTimes(Rule.ALWAYS, false, false).needsUpdate(false, now - S, now, now, now), "files under nodiratime");
        AccessTimes readOnly = new AccessTimes(Rule.ALWAYS, true, true);
        assertFalse(readOnly.needsUpdate(false, now - DAY, now, now, now));
        assertFalse(readOnly.everyRead());
    }
}
