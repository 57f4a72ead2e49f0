package dev.fusepanama.inode;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The set-ID rule of Linux 6.2+ ({@code setattr_should_drop_suidgid}), as {@link SetId} applies it. */
class SetIdTest {
    /** A caller of group {@code gid} (and supplementary {@code groups}) that has CAP_FSETID or not. */
    private static Request caller(int gid, boolean fsetid, int... groups) {
        return new Request() {
            @Override public int uid() { return 1000; }
            @Override public int gid() { return gid; }
            @Override public int pid() { return 1; }
            @Override public int umask() { return 022; }
            @Override public int[] groups() { return groups; }
            @Override public boolean mayKeepSetId() { return fsetid; }
            @Override public boolean interrupted() { return false; }
        };
    }

    @Test
    void aCallerWithoutFsetidLosesSetUidAndTheSetGidOfAGroupExecutableFile() {
        assertEquals(0777, SetId.afterDataChange(06777, 50, caller(50, false)));
    }

    @Test
    void setGidWithoutGroupExecuteStaysForAMemberOfTheGroupAndGoesForAnyoneElse() {
        assertEquals(02767, SetId.afterDataChange(02767, 50, caller(50, false)));
        assertEquals(02767, SetId.afterDataChange(02767, 50, caller(7, false, 3, 50)), "a supplementary group counts");
        assertEquals(0767, SetId.afterDataChange(02767, 50, caller(7, false, 3)));
    }

    @Test
    void aCallerWithFsetidKeepsEveryBit() {
        assertEquals(06777, SetId.afterDataChange(06777, 50, caller(7, true)));
        assertEquals(02767, SetId.afterDataChange(02767, 50, caller(7, true)));
    }

    @Test
    void aFileWithoutSetIdBitsIsLeftAsItIsWithoutAskingAboutTheCaller() {
        Request asksNothing = new Request() {
            @Override public int uid() { throw new AssertionError(); }
            @Override public int gid() { throw new AssertionError(); }
            @Override public int pid() { throw new AssertionError(); }
            @Override public int umask() { throw new AssertionError(); }
            @Override public int[] groups() { throw new AssertionError(); }
            @Override public boolean mayKeepSetId() { throw new AssertionError(); }
            @Override public boolean interrupted() { throw new AssertionError(); }
        };
        assertEquals(0755, SetId.afterDataChange(0755, 50, asksNothing));
    }
}
