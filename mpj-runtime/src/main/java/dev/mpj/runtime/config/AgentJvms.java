package dev.mpj.runtime.config;

/** The {@code mpj.agentJvms} setting: how mpjrun's node agents of one machine are spread over JVMs. */
public enum AgentJvms implements SettingValue {
    /**
     * No JVM of their own: the agents below mpjrun run in mpjrun's JVM, each with its own PMI server, table and tree
     * links, so that no agent boot delays the ranks of the nodes below the first.
     */
    LAUNCHER,
    /** One JVM for all the agents below mpjrun, each agent still with its own PMI server, table and tree links. */
    SHARED,
    /** One JVM per agent, as one per node of a real cluster. */
    PER_NODE
}
