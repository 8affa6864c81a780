package mpi;

import java.io.ObjectInputFilter;

/**
 * The {@link ObjectInputFilter} that every {@link MPI#OBJECT} message is deserialised under. By default any class
 * the program can load passes (its class path, the JDK's collections, arrays and boxed types) except the packages
 * of known deserialisation gadgets, with limits on depth and array length. The setting {@code mpj.objectFilter}
 * (system property) or {@code MPJ_OBJECT_FILTER} (environment), in the JDK's filter-pattern syntax, is placed
 * before the default class patterns, so it can allow ({@code com.example.Gadget}) or refuse ({@code !*} ends an
 * allow-list) first; its limits replace the default ones. A JVM-wide {@code jdk.serialFilter} is consulted too.
 * One instance guards one message and remembers what it refused, so the error can name the class.
 */
final class ObjectFilter implements ObjectInputFilter {
    static final String PROPERTY = "mpj.objectFilter";
    static final String VARIABLE = "MPJ_OBJECT_FILTER";

    /** Limits first: in a pattern the last value of a limit wins, so the setting's limits replace these. */
    static final String DEFAULT_LIMITS = "maxdepth=1000;maxarray=268435456";

    /** Classes first matched wins, so the setting's class patterns come before these. */
    static final String DEFAULT_REFUSED = String.join(";",
            "!org.apache.commons.collections.functors.*",
            "!org.apache.commons.collections4.functors.*",
            "!org.apache.commons.beanutils.*",
            "!org.codehaus.groovy.runtime.**",
            "!com.sun.org.apache.xalan.**",
            "!org.apache.xalan.**",
            "!org.springframework.beans.factory.**",
            "!org.springframework.aop.**",
            "!javax.management.**",
            "!java.rmi.server.*",
            "!sun.rmi.**",
            "!com.sun.rowset.**",
            "!com.sun.jndi.**",
            "!javax.naming.**",
            "!com.mchange.v2.c3p0.**",
            "!org.apache.xbean.**",
            "!bsh.**",
            "!org.mozilla.javascript.**");

    private static volatile Rules cached;

    private final ObjectInputFilter rules;
    private String refused;

    private ObjectFilter(ObjectInputFilter rules) {
        this.rules = rules;
    }

    /** A filter for one message, under the setting as it is now. */
    static ObjectFilter forOneMessage() {
        String setting = System.getProperty(PROPERTY);
        if (setting == null) {
            setting = System.getenv(VARIABLE);
        }
        setting = setting == null ? "" : setting.trim();
        Rules rules = cached;
        if (rules == null || !rules.setting.equals(setting)) {
            rules = new Rules(setting, compile(setting));
            cached = rules;
        }
        return new ObjectFilter(rules.filter);
    }

    private static ObjectInputFilter compile(String setting) {
        String pattern = DEFAULT_LIMITS + ";" + (setting.isEmpty() ? "" : setting + ";") + DEFAULT_REFUSED;
        try {
            return ObjectInputFilter.Config.createFilter(pattern);
        } catch (IllegalArgumentException e) {
            throw new MPIException(MPI.ERR_ARG, PROPERTY + " / " + VARIABLE + " is not a valid filter pattern: \""
                    + setting + "\": " + e.getMessage(), e);
        }
    }

    @Override
    public Status checkInput(FilterInfo info) {
        Status status = rules.checkInput(info);
        ObjectInputFilter jvmWide = ObjectInputFilter.Config.getSerialFilter();
        if (status != Status.REJECTED && jvmWide != null && jvmWide.checkInput(info) == Status.REJECTED) {
            status = Status.REJECTED;
        }
        if (status == Status.REJECTED && refused == null) {
            refused = describe(info);
        }
        return status;
    }

    /** What this filter refused, or null. */
    String refused() {
        return refused;
    }

    private static String describe(FilterInfo info) {
        Class<?> type = info.serialClass();
        if (type != null) {
            return "class " + type.getName();
        }
        return "an object past the limits (depth " + info.depth() + ", array length " + info.arrayLength()
                + ", references " + info.references() + ")";
    }

    private record Rules(String setting, ObjectInputFilter filter) {
    }
}
