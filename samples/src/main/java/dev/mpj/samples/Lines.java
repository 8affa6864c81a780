package dev.mpj.samples;

import java.util.Locale;

/**
 * Formatted output in one write per call. {@code System.out.printf} writes each literal and each field with a
 * write of its own, and under Hydra, which forwards whatever each read of a rank's pipe returns, another rank's
 * line can land in the middle of one of them; {@code print} of the formatted string is one write.
 */
public final class Lines {
    private Lines() {
    }

    /** As {@code System.out.printf(Locale.ROOT, format, args)}, in one write. */
    public static void printf(String format, Object... args) {
        System.out.print(String.format(Locale.ROOT, format, args));
    }
}
