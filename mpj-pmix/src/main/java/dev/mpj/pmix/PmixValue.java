package dev.mpj.pmix;

import dev.mpj.runtime.pmi.wire.PmiException;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

/**
 * Reads and writes {@code pmix_value_t} and {@code pmix_info_t}: the string and boolean values a client puts
 * and passes as directives, and the string and integer values the server answers with.
 */
final class PmixValue {
    static final short BOOL = 1;
    static final short STRING = 3;
    private static final short SIZE = 4;
    private static final short PID = 5;
    private static final short INT = 6;
    private static final short INT8 = 7;
    private static final short INT16 = 8;
    private static final short INT32 = 9;
    private static final short INT64 = 10;
    private static final short UINT = 11;
    private static final short UINT8 = 12;
    private static final short UINT16 = 13;
    private static final short UINT32 = 14;
    private static final short UINT64 = 15;
    private static final short PROC_RANK = 40;

    private PmixValue() {
    }

    /** A {@code pmix_value_t} of type {@code PMIX_STRING} pointing to a copy of {@code s}, both in {@code arena}. */
    static MemorySegment string(Arena arena, String s) {
        MemorySegment value = arena.allocate(PmixLibrary.VALUE_SIZE, 8);
        value.set(JAVA_SHORT, 0, STRING);
        value.set(ADDRESS, PmixLibrary.VALUE_DATA, arena.allocateFrom(s));
        return value;
    }

    /** One {@code pmix_info_t} directive {@code key = true} (e.g. {@code PMIX_COLLECT_DATA}). */
    static MemorySegment flag(Arena arena, String key) {
        MemorySegment info = arena.allocate(PmixLibrary.INFO_SIZE, 8);
        PmixLibrary.putFixedString(info, PmixLibrary.MAX_KEY_LENGTH + 1, key);
        MemorySegment value = info.asSlice(PmixLibrary.INFO_VALUE, PmixLibrary.VALUE_SIZE);
        value.set(JAVA_SHORT, 0, BOOL);
        value.set(JAVA_BYTE, PmixLibrary.VALUE_DATA, (byte) 1);
        return info;
    }

    /** The string a value holds, or its number in decimal. */
    static String asString(MemorySegment value) {
        short type = value.get(JAVA_SHORT, 0);
        if (type == STRING) {
            return PmixLibrary.string(value.get(ADDRESS, PmixLibrary.VALUE_DATA));
        }
        return Long.toString(asLong(value));
    }

    /** The number an integer value holds, unsigned types widened without sign. */
    static long asLong(MemorySegment value) {
        short type = value.get(JAVA_SHORT, 0);
        long at = PmixLibrary.VALUE_DATA;
        return switch (type) {
            case INT8 -> value.get(JAVA_BYTE, at);
            case UINT8 -> Byte.toUnsignedLong(value.get(JAVA_BYTE, at));
            case INT16 -> value.get(JAVA_SHORT, at);
            case UINT16 -> Short.toUnsignedLong(value.get(JAVA_SHORT, at));
            case INT, INT32, PID -> value.get(JAVA_INT, at);
            case UINT, UINT32, PROC_RANK -> Integer.toUnsignedLong(value.get(JAVA_INT, at));
            case INT64, UINT64, SIZE -> value.get(JAVA_LONG, at);
            case STRING -> parse(PmixLibrary.string(value.get(ADDRESS, at)));
            default -> throw new PmiException("the PMIx server answered with a value of type " + type
                    + " where a number was expected");
        };
    }

    private static long parse(String s) {
        try {
            return Long.parseLong(s.trim());
        } catch (NumberFormatException | NullPointerException e) {
            throw new PmiException("the PMIx server answered '" + s + "' where a number was expected");
        }
    }
}
