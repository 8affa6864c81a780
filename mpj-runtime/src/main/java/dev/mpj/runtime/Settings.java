package dev.mpj.runtime;

import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;

/** An immutable snapshot of every {@link Setting}, read once and validated as a whole. */
public final class Settings {
    private final Map<Setting, String> values;

    private Settings(Map<Setting, String> values) {
        this.values = values;
        validate();
    }

    /** Reads system properties, then the environment, then the defaults. */
    public static Settings fromEnvironment() {
        return from(System.getenv(), System.getProperties());
    }

    public static Settings from(Map<String, String> environment, Map<Object, Object> properties) {
        Map<Setting, String> values = new EnumMap<>(Setting.class);
        for (Setting s : Setting.values()) {
            Object p = properties.get(s.property());
            String e = environment.get(s.environmentVariable());
            values.put(s, p != null ? p.toString().trim() : e != null ? e.trim() : s.defaultValue());
        }
        return new Settings(values);
    }

    public static Settings defaults() {
        return from(Map.of(), Map.of());
    }

    /** A copy with one setting changed. */
    public Settings with(Setting setting, String value) {
        Map<Setting, String> copy = new EnumMap<>(values);
        copy.put(setting, value);
        return new Settings(copy);
    }

    public String get(Setting setting) {
        return values.get(setting);
    }

    public int getInt(Setting setting) {
        String v = values.get(setting);
        try {
            return Integer.parseInt(v);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(setting.property() + " must be an integer, not '" + v + "'");
        }
    }

    public boolean getBoolean(Setting setting) {
        String v = values.get(setting).toLowerCase(Locale.ROOT);
        return v.equals("true") || v.equals("1") || v.equals("yes");
    }

    public int eagerThreshold() {
        return getInt(Setting.EAGER_THRESHOLD);
    }

    public int rendezvousChunk() {
        return getInt(Setting.RENDEZVOUS_CHUNK);
    }

    public int tcpMaxFrame() {
        return getInt(Setting.TCP_MAX_FRAME);
    }

    /** Pretend nodes to split the job into; 0 when the real node map is used. */
    public int fakeNodes() {
        return getInt(Setting.FAKE_NODES);
    }

    /** Bytes of each node segment reserved for the shared-memory transport. */
    public int shmTransportBytes() {
        return getInt(Setting.SHM_TRANSPORT_BYTES);
    }

    /** Which transports carry point-to-point traffic: {@code auto}, {@code tcp} or {@code shm}. */
    public String transports() {
        return get(Setting.TRANSPORTS);
    }

    /** Seconds a rank waits for its process manager or its peers during {@code MPI.Init}. */
    public int initTimeoutSeconds() {
        return getInt(Setting.INIT_TIMEOUT);
    }

    public boolean verbose() {
        return getBoolean(Setting.VERBOSE);
    }

    /** The address-exchange strategy asked for: simple, shm, roots or auto. */
    public String addressExchange() {
        return get(Setting.ADDRESS_EXCHANGE).toLowerCase(Locale.ROOT);
    }

    /** Whether ranks agree on the longest business card before exchanging them. */
    public boolean irregularCards() {
        return getBoolean(Setting.IRREGULAR_CARDS);
    }

    /** Whether every rank prints its MPI.Init phases (also implied by {@link #verbose()}). */
    public boolean initTimings() {
        return getBoolean(Setting.INIT_TIMINGS) || verbose();
    }

    /** Whether every rank prints its connection counts at {@code MPI.Finalize} (also implied by {@link #initTimings()}). */
    public boolean connectionStats() {
        return getBoolean(Setting.CONNECTION_STATS) || initTimings();
    }

    private void validate() {
        int eager = eagerThreshold();
        int chunk = rendezvousChunk();
        int maxFrame = tcpMaxFrame();
        if (eager < 0) {
            throw new IllegalArgumentException(Setting.EAGER_THRESHOLD.property() + " must be >= 0");
        }
        if (chunk < 1024) {
            throw new IllegalArgumentException(Setting.RENDEZVOUS_CHUNK.property() + " must be >= 1024");
        }
        int needed = Math.max(eager, chunk) + 64;
        if (maxFrame < needed) {
            throw new IllegalArgumentException(Setting.TCP_MAX_FRAME.property() + " (" + maxFrame
                    + ") must hold the larger of the eager threshold and the rendezvous chunk plus headers ("
                    + needed + ")");
        }
        if (getInt(Setting.TCP_IO_THREADS) < 1) {
            throw new IllegalArgumentException(Setting.TCP_IO_THREADS.property() + " must be >= 1");
        }
        String progress = get(Setting.TCP_PROGRESS);
        if (!progress.equals("caller") && !progress.equals("threads")) {
            throw new IllegalArgumentException(Setting.TCP_PROGRESS.property() + " must be caller or threads, not "
                    + progress);
        }
        if (initTimeoutSeconds() < 1) {
            throw new IllegalArgumentException(Setting.INIT_TIMEOUT.property() + " must be >= 1");
        }
        if (fakeNodes() < 0) {
            throw new IllegalArgumentException(Setting.FAKE_NODES.property() + " must be >= 0 (0: real nodes)");
        }
        if (shmTransportBytes() < 0) {
            throw new IllegalArgumentException(Setting.SHM_TRANSPORT_BYTES.property() + " must be >= 0");
        }
        String transports = transports();
        if (!transports.equals("auto") && !transports.equals("tcp") && !transports.equals("shm")) {
            throw new IllegalArgumentException(Setting.TRANSPORTS.property() + " must be auto, tcp or shm, not '"
                    + transports + "'");
        }
        dev.mpj.runtime.engine.WaitPolicy.of(this);
        switch (addressExchange()) {
            case "simple", "shm", "roots", "auto" -> { }
            default -> throw new IllegalArgumentException(Setting.ADDRESS_EXCHANGE.property()
                    + " must be simple, shm, roots or auto, not '" + get(Setting.ADDRESS_EXCHANGE) + "'");
        }
        dev.mpj.runtime.connect.ConnectionMode.of(this);
        if (getInt(Setting.CONNECT_WINDOW) < 1) {
            throw new IllegalArgumentException(Setting.CONNECT_WINDOW.property() + " must be >= 1");
        }
        String kill = get(Setting.TEST_KILL_AFTER_PHASE);
        if (!kill.isEmpty() && !kill.matches("[a-z]+@[0-9]+")) {
            throw new IllegalArgumentException(Setting.TEST_KILL_AFTER_PHASE.property() + " must be PHASE@RANK,"
                    + " e.g. segment@0, not '" + kill + "'");
        }
        if (get(Setting.SEGMENT_DIR).isEmpty()) {
            throw new IllegalArgumentException(Setting.SEGMENT_DIR.property() + " must name a directory");
        }
    }
}
