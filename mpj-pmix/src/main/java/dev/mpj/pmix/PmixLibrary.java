package dev.mpj.pmix;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * The functions of {@code libpmix.so.2} a client needs, bound through the Foreign Function and Memory API, and
 * the layouts of the structs they take (x86-64 and aarch64 LP64, as the PMIx 4 headers lay them out). Every
 * function returns a {@code pmix_status_t}: 0 is success, {@link #ERR_NOT_FOUND} a missing key.
 */
final class PmixLibrary {
    static final String NAME = "libpmix.so.2";

    static final int SUCCESS = 0;
    static final int ERR_NOT_FOUND = -46;

    /** {@code pmix_proc_t}: {@code char nspace[PMIX_MAX_NSLEN + 1]}, then the {@code uint32_t} rank. */
    static final long PROC_SIZE = 260;
    static final long PROC_RANK = 256;
    static final int MAX_NSPACE_LENGTH = 255;
    /** {@code pmix_value_t}: the {@code uint16_t} type, then the data union at 8; 32 bytes. */
    static final long VALUE_SIZE = 32;
    static final long VALUE_DATA = 8;
    /** {@code pmix_info_t}: {@code char key[PMIX_MAX_KEYLEN + 1]}, the {@code uint32_t} flags, the value at 520. */
    static final long INFO_SIZE = 552;
    static final long INFO_VALUE = 520;
    static final int MAX_KEY_LENGTH = 511;

    /** {@code PMIX_RANK_UNDEF}: a get from whichever rank of the namespace put the key. */
    static final int RANK_UNDEF = -1;
    /** {@code PMIX_RANK_WILDCARD}: a get of job-level information. */
    static final int RANK_WILDCARD = -2;

    /** {@code pmix_scope_t} {@code PMIX_GLOBAL}: the key reaches every rank of the job. */
    static final byte SCOPE_GLOBAL = 3;

    private static PmixLibrary loaded;

    final MethodHandle init;
    final MethodHandle finalize;
    final MethodHandle abort;
    final MethodHandle put;
    final MethodHandle commit;
    final MethodHandle fence;
    final MethodHandle get;
    final MethodHandle valueDestruct;
    final MethodHandle errorString;
    final MethodHandle free;

    private PmixLibrary(SymbolLookup pmix) {
        Linker linker = Linker.nativeLinker();
        // pmix_status_t PMIx_Init(pmix_proc_t *proc, pmix_info_t info[], size_t ninfo)
        init = bind(linker, pmix, "PMIx_Init", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_LONG));
        // pmix_status_t PMIx_Finalize(const pmix_info_t info[], size_t ninfo)
        finalize = bind(linker, pmix, "PMIx_Finalize", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG));
        // pmix_status_t PMIx_Abort(int status, const char msg[], pmix_proc_t procs[], size_t nprocs)
        abort = bind(linker, pmix, "PMIx_Abort",
                FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, ADDRESS, JAVA_LONG));
        // pmix_status_t PMIx_Put(pmix_scope_t scope, const char key[], pmix_value_t *val)
        put = bind(linker, pmix, "PMIx_Put", FunctionDescriptor.of(JAVA_INT, JAVA_BYTE, ADDRESS, ADDRESS));
        // pmix_status_t PMIx_Commit(void)
        commit = bind(linker, pmix, "PMIx_Commit", FunctionDescriptor.of(JAVA_INT));
        // pmix_status_t PMIx_Fence(const pmix_proc_t procs[], size_t nprocs, const pmix_info_t info[], size_t ninfo)
        fence = bind(linker, pmix, "PMIx_Fence",
                FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, ADDRESS, JAVA_LONG));
        // pmix_status_t PMIx_Get(const pmix_proc_t *proc, const char key[], const pmix_info_t info[],
        //                        size_t ninfo, pmix_value_t **val)
        get = bind(linker, pmix, "PMIx_Get",
                FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS, JAVA_LONG, ADDRESS));
        // void PMIx_Value_destruct(pmix_value_t *val): frees what the value points to, not the value itself
        valueDestruct = bind(linker, pmix, "PMIx_Value_destruct", FunctionDescriptor.ofVoid(ADDRESS));
        // const char *PMIx_Error_string(pmix_status_t status)
        errorString = bind(linker, pmix, "PMIx_Error_string", FunctionDescriptor.of(ADDRESS, JAVA_INT));
        free = bind(linker, linker.defaultLookup(), "free", FunctionDescriptor.ofVoid(ADDRESS));
    }

    /**
     * The library, loaded on first use (the dynamic linker's search: {@code LD_LIBRARY_PATH}, then the system's
     * directories).
     *
     * @throws IllegalArgumentException when {@value #NAME} cannot be loaded
     */
    static synchronized PmixLibrary load() {
        if (loaded == null) {
            loaded = new PmixLibrary(SymbolLookup.libraryLookup(NAME, Arena.global()));
        }
        return loaded;
    }

    /** PMIx's name for a status, e.g. {@code PMIX_ERR_UNREACH}. */
    String describe(int status) {
        try {
            MemorySegment s = (MemorySegment) errorString.invokeExact(status);
            return s.equals(MemorySegment.NULL) ? "status " + status
                    : s.reinterpret(Long.MAX_VALUE).getString(0) + " (" + status + ")";
        } catch (Throwable t) {
            return "status " + status;
        }
    }

    private static MethodHandle bind(Linker linker, SymbolLookup lookup, String name, FunctionDescriptor fd) {
        MemorySegment symbol = lookup.find(name).orElseThrow(
                () -> new IllegalArgumentException(NAME + " has no symbol " + name + " (PMIx 4 or later is needed)"));
        return linker.downcallHandle(symbol, fd);
    }

    /** The C string of {@code pointer}, or null for NULL. */
    static String string(MemorySegment pointer) {
        return pointer.equals(MemorySegment.NULL) ? null : pointer.reinterpret(Long.MAX_VALUE).getString(0);
    }

    /** A NUL-terminated copy of {@code s} in a field of {@code capacity} bytes (the rest zero). */
    static void putFixedString(MemorySegment field, long capacity, String s) {
        byte[] bytes = s.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        if (bytes.length >= capacity) {
            throw new IllegalArgumentException("'" + s + "' is longer than " + (capacity - 1) + " bytes");
        }
        field.asSlice(0, capacity).fill((byte) 0);
        MemorySegment.copy(bytes, 0, field, ValueLayout.JAVA_BYTE, 0, bytes.length);
    }
}
