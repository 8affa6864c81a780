package dev.mpj.runtime.config;

/** The {@code mpj.pmi} setting: which PMI client a rank starts. */
public enum PmiDialect implements SettingValue {
    /** Whatever the environment offers, else a job of one. */
    AUTO,
    /** PMI-1 over PMI_FD or PMI_PORT. */
    PMI1,
    /** PMI-2 over PMI_FD or PMI_PORT. */
    PMI2,
    /** A job of one, whatever the environment says. */
    SINGLETON,
    /** PMIx through libpmix (Java 22 and later, with the mpj-pmix jar on the class path). */
    PMIX
}
