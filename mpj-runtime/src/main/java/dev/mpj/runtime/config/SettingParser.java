package dev.mpj.runtime.config;

import java.util.Locale;

/**
 * How one {@link Setting}'s text becomes its typed value, with the values it allows. A bad text raises
 * IllegalArgumentException naming the setting's property. The parsers are classes, not lambdas: every rank
 * parses every setting at the start of {@code MPI.Init}, where each lambda's linkage is a cold JVM's work.
 */
interface SettingParser<T> {
    T parse(Setting setting, String text);

    /** The text itself, trimmed. */
    static SettingParser<String> text() {
        return Text.INSTANCE;
    }

    /** true, 1 or yes (in any case) for true; anything else is false. */
    static SettingParser<Boolean> flag() {
        return Flag.INSTANCE;
    }

    /** Any integer. */
    static SettingParser<Integer> integer() {
        return new AtLeast(Integer.MIN_VALUE, "");
    }

    /** An integer of at least {@code min}. */
    static SettingParser<Integer> atLeast(int min) {
        return atLeast(min, "");
    }

    /** An integer of at least {@code min}; {@code note} follows the bound in the error. */
    static SettingParser<Integer> atLeast(int min, String note) {
        return new AtLeast(min, note);
    }

    /** One constant of {@code type}, spelled in any case, '-' optional; the error reads "a, b or c". */
    static <E extends Enum<E> & SettingValue> SettingParser<E> choice(Class<E> type) {
        return new Choice<>(type, false);
    }

    /** As {@link #choice}, the error reading "one of a, b, c" (for longer lists). */
    static <E extends Enum<E> & SettingValue> SettingParser<E> oneOf(Class<E> type) {
        return new Choice<>(type, true);
    }

    final class Text implements SettingParser<String> {
        static final Text INSTANCE = new Text();

        @Override
        public String parse(Setting setting, String text) {
            return text;
        }
    }

    final class Flag implements SettingParser<Boolean> {
        static final Flag INSTANCE = new Flag();

        @Override
        public Boolean parse(Setting setting, String text) {
            String v = text.toLowerCase(Locale.ROOT);
            return v.equals("true") || v.equals("1") || v.equals("yes");
        }
    }

    /** An integer of at least {@code min} ({@link Integer#MIN_VALUE}: any), or an error naming the setting. */
    record AtLeast(int min, String note) implements SettingParser<Integer> {
        @Override
        public Integer parse(Setting setting, String text) {
            int value;
            try {
                value = Integer.parseInt(text);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(setting.property() + " must be an integer, not '" + text + "'");
            }
            if (value < min) {
                throw new IllegalArgumentException(setting.property() + " must be >= " + min + note);
            }
            return value;
        }
    }

    /** One constant of {@code type}; {@code list} words the error as "one of a, b, c" rather than "a, b or c". */
    record Choice<E extends Enum<E> & SettingValue>(Class<E> type, boolean list) implements SettingParser<E> {
        @Override
        public E parse(Setting setting, String text) {
            String wanted = text.replace("-", "");
            E[] values = type.getEnumConstants();
            for (E e : values) {
                if (e.settingValue().replace("-", "").equalsIgnoreCase(wanted)) {
                    return e;
                }
            }
            StringBuilder known = new StringBuilder(list ? "one of " : "");
            for (int i = 0; i < values.length; i++) {
                String separator = i == 0 ? "" : list || i < values.length - 1 ? ", " : " or ";
                known.append(separator).append(values[i].settingValue());
            }
            throw new IllegalArgumentException(setting.property() + " must be " + known + ", not '" + text + "'");
        }
    }
}
