package dev.mpj.launcher;

import dev.mpj.runtime.pmi.wire.ProcessMapping;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What {@code mpjrun} was asked to run.
 *
 * @param processes     number of ranks ({@code -np})
 * @param classPath     class path prepended to the launcher's own ({@code -cp}); empty when not given
 * @param fakeNodes     split the machine into this many nodes ({@code --fake-nodes}); 0 when not given
 * @param environment   extra variables for every rank ({@code -env NAME VALUE}), in command-line order
 * @param prefixOutput  prefix every output line with {@code [rank] } ({@code -l})
 * @param timeout       end the job after this long ({@code --timeout}); {@link Duration#ZERO} for none
 * @param mainClass     class whose {@code main} every rank runs; null when {@code jar} is given
 * @param jar           {@code -jar} file whose manifest names the main class; null when {@code mainClass} is given
 * @param arguments     program arguments
 * @param jvmOptions    extra flags for every rank JVM (from {@code MPJ_JVM_OPTS})
 * @param workingDirectory the ranks' working directory ({@code -wdir}); null for the launcher's
 * @param oversubscribe more ranks than cores is intended ({@code --oversubscribe}): no warning
 * @param device        the MPJ Express device asked for ({@code -dev}), which is ignored; null when not given
 * @param ranksPerNode  ranks per pretend node ({@code -ppn}); 0 when not given
 * @param hosts         the hosts of {@code -hosts} or a machinefile; empty when not given
 * @param launcher      how Hydra reaches the hosts ({@code -launcher}, e.g. ssh or fork); null when not given
 * @param noSrun        run on this machine even inside a Slurm allocation ({@code --no-srun})
 */
public record LaunchOptions(int processes, String classPath, int fakeNodes, Map<String, String> environment,
                            boolean prefixOutput, Duration timeout, String mainClass, String jar,
                            List<String> arguments, List<String> jvmOptions, String workingDirectory,
                            boolean oversubscribe, String device, int ranksPerNode, List<HostList.Host> hosts,
                            String launcher, boolean noSrun) {

    /** Environment variable whose whitespace-separated words are added to every rank's JVM command line. */
    public static final String JVM_OPTS_VARIABLE = "MPJ_JVM_OPTS";

    public LaunchOptions {
        if (processes < 1) {
            throw new IllegalArgumentException("a job needs at least one rank, not " + processes);
        }
        if (fakeNodes < 0 || fakeNodes > processes) {
            throw new IllegalArgumentException("fake nodes must be between 1 and the number of ranks");
        }
        if ((mainClass == null) == (jar == null)) {
            throw new IllegalArgumentException("exactly one of a main class and a jar is run");
        }
        Objects.requireNonNull(classPath, "classPath");
        Objects.requireNonNull(timeout, "timeout");
        if (ranksPerNode < 0) {
            throw new IllegalArgumentException("ranks per node cannot be negative");
        }
        hosts = List.copyOf(hosts);
        environment = Collections.unmodifiableMap(new LinkedHashMap<>(environment));
        arguments = List.copyOf(arguments);
        jvmOptions = List.copyOf(jvmOptions);
    }

    /** Options without the mpiexec-style extras: the launcher's working directory, no host list. */
    public LaunchOptions(int processes, String classPath, int fakeNodes, Map<String, String> environment,
                         boolean prefixOutput, Duration timeout, String mainClass, String jar,
                         List<String> arguments, List<String> jvmOptions) {
        this(processes, classPath, fakeNodes, environment, prefixOutput, timeout, mainClass, jar, arguments,
                jvmOptions, null, false, null, 0, List.of(), null, false);
    }

    /**
     * Parses {@code mpjrun}'s command line: options, then the program (a sample name, {@code -jar app.jar}
     * or a main class), then its arguments.
     *
     * @param environment the launcher's environment: {@value #JVM_OPTS_VARIABLE} and the variables {@code -x NAME}
     *                    passes on are read from it
     * @throws UsageException for a wrong command line, or when help or the version is asked for
     */
    public static LaunchOptions parse(List<String> args, SampleCatalog samples, Map<String, String> environment)
            throws UsageException {
        Parsed p = new Parsed();
        int i = 0;
        while (i < args.size()) {
            String arg = args.get(i);
            switch (arg) {
                case "-h", "--help" -> throw UsageException.help();
                case "--version" -> throw UsageException.version();
                case "-np", "-n" -> p.processes = positiveInt(arg, valueOf(args, i++));
                case "-cp", "-classpath", "--class-path" -> p.classPath = valueOf(args, i++);
                case "--fake-nodes" -> p.fakeNodes = positiveInt(arg, valueOf(args, i++));
                case "-env", "-genv" -> {
                    if (i + 2 >= args.size()) {
                        throw new UsageException(arg + " needs a NAME and a VALUE");
                    }
                    String name = args.get(++i);
                    p.env.put(variableName(arg, name), args.get(++i));
                }
                case "-x" -> {
                    String spec = valueOf(args, i++);
                    int eq = spec.indexOf('=');
                    String name = variableName(arg, eq < 0 ? spec : spec.substring(0, eq));
                    String value = eq < 0 ? environment.get(name) : spec.substring(eq + 1);
                    if (value != null) { // Open MPI passes an unset variable on as unset
                        p.env.put(name, value);
                    }
                }
                case "-wdir", "--wdir" -> p.workingDirectory = valueOf(args, i++);
                case "--oversubscribe" -> p.oversubscribe = true;
                case "-dev" -> p.device = valueOf(args, i++);
                case "-ppn" -> p.ranksPerNode = positiveInt(arg, valueOf(args, i++));
                case "-hosts", "-host", "--host", "-H" -> p.setHosts(arg, HostList.parseList(arg, valueOf(args, i++)));
                case "-f", "-machinefile", "--machinefile", "-hostfile", "--hostfile" ->
                        p.setHosts(arg, HostList.parseMachinefile(arg, Path.of(valueOf(args, i++))));
                case "-launcher" -> p.launcher = valueOf(args, i++);
                case "--no-srun" -> p.noSrun = true;
                case "-l", "--prefix-rank" -> p.prefix = true;
                case "--timeout" -> p.timeout = seconds(arg, valueOf(args, i++));
                case "-jar" -> {
                    String jar = valueOf(args, i++);
                    return p.build(null, jar, args.subList(i + 1, args.size()), environment);
                }
                default -> {
                    if (arg.startsWith("-")) {
                        throw new UsageException("unknown option '" + arg + "'");
                    }
                    String mainClass = samples.mainClassOf(arg).orElse(arg);
                    if (arg.endsWith(".java") || arg.endsWith(".class")) {
                        throw new UsageException("'" + arg + "' is a file; name the main class instead, with -cp "
                                + "for the directory or jar that holds it");
                    }
                    if (!isClassName(mainClass)) {
                        throw new UsageException("'" + arg + "' is neither a sample (" + String.join(", ",
                                samples.entries().keySet()) + ") nor a main class name");
                    }
                    return p.build(mainClass, null, args.subList(i + 1, args.size()), environment);
                }
            }
            i++;
        }
        throw new UsageException("no program given: name a sample, a main class or -jar app.jar");
    }

    /**
     * Whether {@code s} is a syntactically valid fully qualified Java class name: identifiers joined by dots. Checked
     * by hand, as the launcher's path to the ranks' start links no lambda (a regular expression's character classes
     * are lambdas).
     */
    static boolean isClassName(String s) {
        boolean atIdentifierStart = true;
        for (int i = 0; i < s.length(); i += Character.charCount(s.codePointAt(i))) {
            int c = s.codePointAt(i);
            boolean valid = atIdentifierStart ? Character.isJavaIdentifierStart(c)
                    : c == '.' || Character.isJavaIdentifierPart(c);
            if (!valid) {
                return false;
            }
            atIdentifierStart = c == '.';
        }
        return !atIdentifierStart;
    }

    /** The whitespace-separated words of {@code text} (as {@code split("\\s+")}, without a regular expression). */
    static List<String> words(String text) {
        List<String> words = new ArrayList<>();
        int start = -1;
        for (int i = 0; i <= text.length(); i++) {
            boolean space = i == text.length() || isWhitespace(text.charAt(i));
            if (space && start >= 0) {
                words.add(text.substring(start, i));
                start = -1;
            } else if (!space && start < 0) {
                start = i;
            }
        }
        return words;
    }

    /** The characters of the regular expression {@code \\s}. */
    private static boolean isWhitespace(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\u000B' || c == '\f' || c == '\r';
    }

    /** Where the ranks live: {@code fakeNodes} blocks, or one node. */
    public ProcessMapping mapping() {
        return fakeNodes == 0 ? ProcessMapping.singleNode(processes) : ProcessMapping.blocks(processes, fakeNodes);
    }

    /** Whether the hosts name a machine other than this one: the job then runs through Hydra. */
    public boolean spansMachines() {
        return spansMachines(hosts);
    }

    private static boolean spansMachines(List<HostList.Host> hosts) {
        for (HostList.Host h : hosts) {
            if (!HostList.isThisMachine(h.name())) {
                return true;
            }
        }
        return false;
    }

    public boolean hasTimeout() {
        return !timeout.isZero();
    }

    /** The command line read so far. */
    private static final class Parsed {
        int processes;
        String classPath = "";
        int fakeNodes;
        final Map<String, String> env = new LinkedHashMap<>();
        boolean prefix;
        Duration timeout = Duration.ZERO;
        String workingDirectory;
        boolean oversubscribe;
        String device;
        int ranksPerNode;
        List<HostList.Host> hosts = List.of();
        String hostsOption;
        String launcher;
        boolean noSrun;

        void setHosts(String option, List<HostList.Host> given) throws UsageException {
            if (hostsOption != null) {
                throw new UsageException(option + " and " + hostsOption + " both name the hosts: give one");
            }
            hostsOption = option;
            hosts = given;
        }

        LaunchOptions build(String mainClass, String jar, List<String> arguments, Map<String, String> environment)
                throws UsageException {
            if (processes == 0) {
                throw new UsageException("missing -np N: how many ranks to start");
            }
            if (fakeNodes > processes) {
                throw new UsageException("--fake-nodes " + fakeNodes + " exceeds the number of ranks (" + processes
                        + ")");
            }
            if (fakeNodes > 0 && (ranksPerNode > 0 || hostsOption != null)) {
                throw new UsageException("--fake-nodes and " + (ranksPerNode > 0 ? "-ppn" : hostsOption)
                        + " both place the ranks: give one");
            }
            List<String> jvmOptions = new ArrayList<>();
            String fromEnv = environment.get(JVM_OPTS_VARIABLE);
            if (fromEnv != null && !fromEnv.isBlank()) {
                jvmOptions.addAll(words(fromEnv));
            }
            return new LaunchOptions(processes, classPath, pretendNodes(), env, prefix, timeout, mainClass, jar,
                    arguments, jvmOptions, workingDirectory, oversubscribe, device, ranksPerNode, hosts, launcher,
                    noSrun);
        }

        /**
         * The pretend nodes that {@code -ppn} or the hosts' slots make: Hydra fills the hosts in order, so the job
         * takes as many hosts as their slots need (all of them, when it has more ranks than slots); the ranks are
         * then spread in equal blocks over those nodes, as {@code --fake-nodes} does.
         */
        private int pretendNodes() {
            if (spansMachines(hosts)) {
                return 0; // real nodes, which Hydra reaches
            }
            if (hosts.isEmpty()) {
                return ranksPerNode > 0 ? (processes + ranksPerNode - 1) / ranksPerNode : fakeNodes;
            }
            int placed = 0;
            int used = 0;
            for (HostList.Host h : hosts) {
                if (placed >= processes) {
                    break;
                }
                placed += ranksPerNode > 0 ? ranksPerNode : h.slots();
                used++;
            }
            return Math.min(used, processes);
        }
    }

    private static String variableName(String option, String name) throws UsageException {
        if (name.isEmpty() || name.indexOf('=') >= 0 || name.indexOf('\0') >= 0) {
            throw new UsageException(option + " needs a variable name without '=', not '" + name + "'");
        }
        return name;
    }

    private static String valueOf(List<String> args, int optionIndex) throws UsageException {
        if (optionIndex + 1 >= args.size()) {
            throw new UsageException(args.get(optionIndex) + " needs a value");
        }
        return args.get(optionIndex + 1);
    }

    static int positiveInt(String option, String value) throws UsageException {
        try {
            int n = Integer.parseInt(value);
            if (n >= 1) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new UsageException(option + " needs a positive whole number, not '" + value + "'");
    }

    private static Duration seconds(String option, String value) throws UsageException {
        try {
            BigDecimal s = new BigDecimal(value);
            if (s.signum() > 0) {
                return Duration.ofMillis(s.movePointRight(3).setScale(0, RoundingMode.CEILING).longValueExact());
            }
        } catch (NumberFormatException | ArithmeticException e) {
            // reported below
        }
        throw new UsageException(option + " needs a positive number of seconds, not '" + value + "'");
    }
}
