package dev.mpj.runtime.config;

/** The {@code mpj.addressExchange} setting: how MPI.Init exchanges business cards. */
public enum AddressExchangeMode implements SettingValue {
    /** Every rank puts its card, and gets every other one. */
    SIMPLE,
    /** One put per node of the node's cards, shared through the node segment. */
    SHM,
    /** Node roots allgather the node tables among themselves. */
    ROOTS,
    /** PMIX_Ring hands each node its neighbour nodes' root cards; the node roots allgather the tables. */
    RING,
    /** Chosen from the job's shape. */
    AUTO
}
