package dev.fusepanama.examples;

import dev.fusepanama.MountOptions;
import dev.fusepanama.vault.crypto.VaultConfig;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Arrays;
import java.util.Locale;
import java.util.regex.Pattern;
import picocli.CommandLine;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.TypeConversionException;

/**
 * What the command line takes, and how it refuses what it does not: every refusal is one line on
 * stderr, naming the command, the option or parameter, the value and what is taken, and exit
 * status 2, before anything is mounted or a password asked for. The value types are picocli
 * converters, so a bad value is refused while the line is parsed.
 */
final class Arguments {
    private Arguments() {}

    /** A refusal of the command's arguments found while running it: told in its own words, one line. */
    static final class Refusal extends ParameterException {
        private static final long serialVersionUID = 1L;

        Refusal(CommandLine command, String message) {
            super(command, message);
        }
    }

    /**
     * picocli's handler of a refused command line: the message on one line, prefixed with the
     * command's name (picocli's own messages also with where the options are listed), instead
     * of the message and the whole usage; exit status 2.
     */
    static int refused(ParameterException e, String[] args) {
        CommandLine command = e.getCommandLine();
        String message = String.valueOf(e.getMessage()).strip().replaceAll("\\s*\\R\\s*", " ");
        String name = command.getCommandSpec().qualifiedName(" ");
        if (!(e instanceof Refusal) && !message.contains("--help")) {
            message += " (" + name + " --help lists what it takes)";
        }
        command.getErr().println(name + ": " + message);
        command.getErr().flush();
        return command.getCommandSpec().exitCodeOnInvalidInput();
    }

    /** A non-negative decimal number, no sign, hex or type suffix: what Double.parseDouble takes beyond that is refused. */
    private static final Pattern DECIMAL = Pattern.compile("(\\d+(\\.\\d*)?|\\.\\d+)([eE][+-]?\\d+)?");

    /** Seconds of a kernel cache: a finite decimal number >= 0. */
    static final class Seconds implements ITypeConverter<Double> {
        @Override
        public Double convert(String value) {
            double s = DECIMAL.matcher(value).matches() ? Double.parseDouble(value) : Double.NaN;
            if (!(s >= 0) || Double.isInfinite(s)) {
                throw new TypeConversionException("'" + value + "' is not a number of seconds: a finite decimal number >= 0, e.g. 1 or 0.5");
            }
            return s;
        }
    }

    /** Most worker threads: 1 to {@link MountOptions#MAX_THREADS}. */
    static final class Threads implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            long n = wholeNumber(value);
            if (n < 1 || n > MountOptions.MAX_THREADS) {
                throw new TypeConversionException("'" + value + "' is not a number of threads: a whole number from 1 to "
                        + MountOptions.MAX_THREADS);
            }
            return (int) n;
        }
    }

    /** memfs's most files: at least 2, the root and one more. */
    static final class Inodes implements ITypeConverter<Long> {
        @Override
        public Long convert(String value) {
            long n = wholeNumber(value);
            if (n < 2) {
                throw new TypeConversionException("'" + value + "' is not a number of files: a whole number from 2 (the root is one) to "
                        + Long.MAX_VALUE);
            }
            return n;
        }
    }

    /** The scrypt cost of a new vault: log2 N, as gocryptfs's -scryptn, within what scrypt can compute here. */
    static final class ScryptLogN implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            long n = wholeNumber(value);
            if (n < VaultConfig.MIN_SCRYPT_LOG_N || n > VaultConfig.MAX_SCRYPT_LOG_N) {
                throw new TypeConversionException("'" + value + "' is not a scrypt cost: log2 of N, a whole number from "
                        + VaultConfig.MIN_SCRYPT_LOG_N + " to " + VaultConfig.MAX_SCRYPT_LOG_N + " (default "
                        + VaultConfig.DEFAULT_SCRYPT_LOG_N + ", as gocryptfs's)");
            }
            return (int) n;
        }
    }

    /** A path given on the command line: not empty (which Java takes for the current directory). */
    static final class NonEmptyPath implements ITypeConverter<Path> {
        @Override
        public Path convert(String value) {
            if (value.isEmpty()) throw new TypeConversionException("'' is an empty path: name a file or directory (. for the current one)");
            return Path.of(value);
        }
    }

    /** Memory or disk size: bytes with an optional K, M, G, T, P or E (powers of 1024). */
    static final class Size implements ITypeConverter<Long> {
        @Override
        public Long convert(String value) {
            return parseSize(value);
        }
    }

    private static final Pattern SIZE = Pattern.compile("(\\d+)([KMGTPE]?)");

    /** {@code 512M}, {@code 2g}, {@code 4096}: a whole number of bytes from 1 to 2^63 - 1. */
    static long parseSize(String value) {
        var m = SIZE.matcher(value.toUpperCase(Locale.ROOT));
        long size = 0;
        if (m.matches()) {
            int shift = 10 * "KMGTPE".indexOf(m.group(2)) + 10;
            try {
                size = Math.multiplyExact(Long.parseLong(m.group(1)), m.group(2).isEmpty() ? 1 : 1L << shift);
            } catch (ArithmeticException | NumberFormatException tooLarge) {
                throw new TypeConversionException("'" + value + "' is more than a size can be here: at most 8E less one byte");
            }
        }
        if (size < 1) {
            throw new TypeConversionException("'" + value + "' is not a size: a whole number of bytes from 1, with an optional K, M, G, "
                    + "T, P or E (powers of 1024), e.g. 512M or 2G");
        }
        return size;
    }

    /** Digits, nothing else; -1 for anything else, and for more than a long holds. */
    private static long wholeNumber(String value) {
        if (value.isEmpty() || !value.chars().allMatch(c -> c >= '0' && c <= '9')) return -1;
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException tooLarge) {
            return -1;
        }
    }

    /** What {@code e} says went wrong, in the words of strerror(3) where Java has them. */
    static String reason(IOException e) {
        return reason(e, null);
    }

    /** As {@link #reason(IOException)}, leaving out the file when it is {@code named} already. */
    static String reason(IOException e, Path named) {
        String file = e instanceof FileSystemException f && f.getFile() != null && !Path.of(f.getFile()).equals(named)
                ? " " + f.getFile() : "";
        if (e instanceof AccessDeniedException) return "permission denied" + (file.isEmpty() ? "" : " on" + file);
        if (e instanceof NoSuchFileException) return "no such file or directory" + (file.isEmpty() ? "" : ":" + file);
        if (e instanceof FileSystemException f && f.getReason() != null) {
            return (file.isEmpty() ? "" : file.substring(1) + ": ") + f.getReason().toLowerCase(Locale.ROOT);
        }
        return e.getMessage() != null ? e.getMessage() : e.toString();
    }

    /**
     * The attributes of {@code path}, which the option or parameter {@code what} named: refused
     * in one line if it does not exist or cannot be examined.
     */
    static BasicFileAttributes existing(CommandLine command, String what, Path path) {
        try {
            return Files.readAttributes(path, BasicFileAttributes.class);
        } catch (NoSuchFileException e) {
            throw new Refusal(command, what + " " + path + " does not exist");
        } catch (IOException e) {
            throw new Refusal(command, what + " " + path + " cannot be examined: " + reason(e, path));
        }
    }

    /** The most bytes a password may have: gocryptfs's limit (readpassword's maxPasswordLen). */
    static final int MAX_PASSWORD_BYTES = 2048;

    /**
     * The first line of {@code file}, the password of {@code --passfile}: refused in one line if
     * the file is missing, a directory, unreadable, its first line empty, longer than
     * {@link #MAX_PASSWORD_BYTES} or not UTF-8. A pipe or a device is read like a file; only the
     * first line is read.
     */
    static char[] passfile(CommandLine command, Path file) {
        String what = "--passfile " + file;
        if (existing(command, "--passfile", file).isDirectory()) {
            throw new Refusal(command, what + " is a directory, not a file whose first line is the password");
        }
        byte[] line = new byte[MAX_PASSWORD_BYTES + 1];
        int n = 0;
        try (InputStream in = Files.newInputStream(file)) {
            for (int b; n < line.length && (b = in.read()) >= 0 && b != '\n'; ) {
                line[n++] = (byte) b;
            }
        } catch (IOException e) {
            throw new Refusal(command, what + " cannot be read: " + reason(e, file));
        }
        try {
            if (n == 0) throw new Refusal(command, what + ": its first line is empty; the password is the first line");
            if (n > MAX_PASSWORD_BYTES) {
                throw new Refusal(command, what + ": its first line is longer than " + MAX_PASSWORD_BYTES + " bytes, the most a password has");
            }
            try {
                var chars = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                        .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(line, 0, n));
                char[] password = new char[chars.remaining()];
                chars.get(password);
                Arrays.fill(chars.array(), '\0');
                return password;
            } catch (CharacterCodingException e) {
                throw new Refusal(command, what + ": its first line is not UTF-8 text");
            }
        } finally {
            Arrays.fill(line, (byte) 0);
        }
    }
}
