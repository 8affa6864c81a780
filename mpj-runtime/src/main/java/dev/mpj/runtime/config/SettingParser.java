package dev.mpj.runtime.config;

import java.util.Locale;

/**
 * How one {@link Setting}'s text becomes its typed value, with the values it allows. A bad text raises
 * IllegalArgumentException naming the setting's property.
 */
@FunctionalInterface
interface SettingParser<T> {
    T parse(Setting setting, String text);

    /** The text itself, trimmed. */
    static SettingParser<String> text() {
        return (setting, text) -> text;
    }

    /** true, 1 or yes (in any case) for true; anything else is false. */
    static SettingParser<Boolean> flag() {
        return (setting, text) -> {
            String v = text.toLowerCase(Locale.ROOT);
            return v.equals("true") || v.equals("1") || v.equals("yes");
        };
    }

    /** Any integer. */
    static SettingParser<Integer> integer() {
        return SettingParser::parseInt;
    }

    /** An integer of at least {@code min}. */
    static SettingParser<Integer> atLeast(int min) {
        return atLeast(min, "");
    }

    /** An integer of at least {@code min}; {@code note} follows the bound in the error. */
    static SettingParser<Integer> atLeast(int min, String note) {
        return (setting, text) -> {
            int value = parseInt(setting, text);
            if (value < min) {
                throw new IllegalArgumentException(setting.property() + " must be >= " + min + note);
            }
            return value;
        };
    }

    /** An integer, or an error naming the setting. */
    private static int parseInt(Setting setting, String text) {
        try {
            return Integer.parseInt(text);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(setting.property() + " must be an integer, not '" + text + "'");
        }
    }

    /** One constant of {@code type}, spelled in any case, '-' optional; the error reads "a, b or c". */
    static <E extends Enum<E> & SettingValue> SettingParser<E> choice(Class<E> type) {
        return (setting, text) -> find(type, text, setting, false);
    }

    /** As {@link #choice}, the error reading "one of a, b, c" (for longer lists). */
    static <E extends Enum<E> & SettingValue> SettingParser<E> oneOf(Class<E> type) {
        return (setting, text) -> find(type, text, setting, true);
    }

    private static <E extends Enum<E> & SettingValue> E find(Class<E> type, String text, Setting setting,
                                                             boolean list) {
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
