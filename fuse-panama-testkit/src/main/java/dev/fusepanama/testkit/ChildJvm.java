package dev.fusepanama.testkit;

import java.util.ArrayList;
import java.util.List;

/**
 * The command line that starts a second JVM like the one running the tests, for checks that need
 * another process: record locks, a JVM that exits without unmounting, a command-line entry point.
 * The {@code java} is this JVM's own, or the one {@value #ENVIRONMENT} names: an architecture run
 * under emulation sets it, since this JVM's executable is then not one this machine can start.
 */
public final class ChildJvm {
    private ChildJvm() {}

    /** The java executable for child JVMs, e.g. a script that runs an arm64 JVM under qemu-user. */
    public static final String ENVIRONMENT = "FUSE_PANAMA_JAVA";

    /**
     * {@code java --enable-native-access=ALL-UNNAMED -cp CLASSPATH MAIN ARGS...} with this JVM's class path.
     *
     * @param main the class whose {@code main} the child runs
     * @param args its arguments
     * @return the command line, for a {@link ProcessBuilder}
     */
    public static List<String> command(Class<?> main, String... args) {
        return command(System.getProperty("java.class.path"), main, args);
    }

    /**
     * As {@link #command(Class, String...)}, with another class path.
     *
     * @param classPath the child's class path
     * @param main the class whose {@code main} the child runs
     * @param args its arguments
     * @return the command line, for a {@link ProcessBuilder}
     */
    public static List<String> command(String classPath, Class<?> main, String... args) {
        return command(List.of(), classPath, main, args);
    }

    /**
     * As {@link #command(String, Class, String...)}, with JVM options before the class path.
     * The run's left-out tags ({@link TestMount#EXCLUDED_GROUPS_PROPERTY}) go with it, so that a
     * child's {@link TestMount} refuses to mount in a unit-only run as this JVM's does.
     *
     * @param jvmOptions the options, e.g. {@code -Dname=value}
     * @param classPath the child's class path
     * @param main the class whose {@code main} the child runs
     * @param args its arguments
     * @return the command line, for a {@link ProcessBuilder}
     * @throws IllegalStateException if this JVM cannot tell its own executable and {@value #ENVIRONMENT} is not set
     */
    public static List<String> command(List<String> jvmOptions, String classPath, Class<?> main, String... args) {
        List<String> command = new ArrayList<>(List.of(java(), "--enable-native-access=ALL-UNNAMED"));
        String excluded = System.getProperty(TestMount.EXCLUDED_GROUPS_PROPERTY);
        if (excluded != null && !excluded.isBlank()) {
            command.add("-D" + TestMount.EXCLUDED_GROUPS_PROPERTY + "=" + excluded);
        }
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp", classPath, main.getName()));
        command.addAll(List.of(args));
        return command;
    }

    private static String java() {
        String configured = System.getenv(ENVIRONMENT);
        if (configured != null && !configured.isBlank()) {
            return configured;
        }
        return ProcessHandle.current().info().command()
                .orElseThrow(() -> new IllegalStateException("cannot tell this JVM's executable; set " + ENVIRONMENT));
    }
}
