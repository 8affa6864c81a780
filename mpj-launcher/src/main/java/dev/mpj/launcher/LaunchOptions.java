package dev.mpj.launcher;

import dev.mpj.runtime.pmi.wire.ProcessMapping;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

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
 */
public record LaunchOptions(int processes, String classPath, int fakeNodes, Map<String, String> environment,
                            boolean prefixOutput, Duration timeout, String mainClass, String jar,
                            List<String> arguments, List<String> jvmOptions) {

    /** Environment variable whose whitespace-separated words are added to every rank's JVM command line. */
    public static final String JVM_OPTS_VARIABLE = "MPJ_JVM_OPTS";

    private static final Pattern CLASS_NAME =
            Pattern.compile("\\p{javaJavaIdentifierStart}\\p{javaJavaIdentifierPart}*"
                    + "(\\.\\p{javaJavaIdentifierStart}\\p{javaJavaIdentifierPart}*)*");

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
        environment = Collections.unmodifiableMap(new LinkedHashMap<>(environment));
        arguments = List.copyOf(arguments);
        jvmOptions = List.copyOf(jvmOptions);
    }

    /**
     * Parses {@code mpjrun}'s command line: options, then the program (a sample name, {@code -jar app.jar}
     * or a main class), then its arguments.
     *
     * @param environment the launcher's environment; only {@value #JVM_OPTS_VARIABLE} is read
     * @throws UsageException for a wrong command line, or when help is asked for
     */
    public static LaunchOptions parse(List<String> args, SampleCatalog samples, Map<String, String> environment)
            throws UsageException {
        int processes = 0;
        String classPath = "";
        int fakeNodes = 0;
        Map<String, String> env = new LinkedHashMap<>();
        boolean prefix = false;
        Duration timeout = Duration.ZERO;
        int i = 0;
        while (i < args.size()) {
            String arg = args.get(i);
            switch (arg) {
                case "-h", "--help" -> throw UsageException.help();
                case "-np", "-n" -> processes = positiveInt(arg, valueOf(args, i++));
                case "-cp", "-classpath", "--class-path" -> classPath = valueOf(args, i++);
                case "--fake-nodes" -> fakeNodes = positiveInt(arg, valueOf(args, i++));
                case "-env" -> {
                    if (i + 2 >= args.size()) {
                        throw new UsageException("-env needs a NAME and a VALUE");
                    }
                    String name = args.get(++i);
                    String value = args.get(++i);
                    if (name.isEmpty() || name.indexOf('=') >= 0 || name.indexOf('\0') >= 0) {
                        throw new UsageException("-env needs a variable name without '=', not '" + name + "'");
                    }
                    env.put(name, value);
                }
                case "-l", "--prefix-rank" -> prefix = true;
                case "--timeout" -> timeout = seconds(arg, valueOf(args, i++));
                case "-jar" -> {
                    String jar = valueOf(args, i++);
                    return build(processes, classPath, fakeNodes, env, prefix, timeout, null, jar,
                            args.subList(i + 1, args.size()), environment);
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
                    return build(processes, classPath, fakeNodes, env, prefix, timeout, mainClass, null,
                            args.subList(i + 1, args.size()), environment);
                }
            }
            i++;
        }
        throw new UsageException("no program given: name a sample, a main class or -jar app.jar");
    }

    /** Whether {@code s} is a syntactically valid fully qualified Java class name. */
    static boolean isClassName(String s) {
        return CLASS_NAME.matcher(s).matches();
    }

    /** Where the ranks live: {@code fakeNodes} blocks, or one node. */
    public ProcessMapping mapping() {
        return fakeNodes == 0 ? ProcessMapping.singleNode(processes) : ProcessMapping.blocks(processes, fakeNodes);
    }

    public boolean hasTimeout() {
        return !timeout.isZero();
    }

    private static LaunchOptions build(int processes, String classPath, int fakeNodes, Map<String, String> env,
                                       boolean prefix, Duration timeout, String mainClass, String jar,
                                       List<String> arguments, Map<String, String> environment)
            throws UsageException {
        if (processes == 0) {
            throw new UsageException("missing -np N: how many ranks to start");
        }
        if (fakeNodes > processes) {
            throw new UsageException("--fake-nodes " + fakeNodes + " exceeds the number of ranks (" + processes
                    + ")");
        }
        List<String> jvmOptions = new ArrayList<>();
        String fromEnv = environment.get(JVM_OPTS_VARIABLE);
        if (fromEnv != null && !fromEnv.isBlank()) {
            jvmOptions.addAll(List.of(fromEnv.trim().split("\\s+")));
        }
        return new LaunchOptions(processes, classPath, fakeNodes, env, prefix, timeout, mainClass, jar, arguments,
                jvmOptions);
    }

    private static String valueOf(List<String> args, int optionIndex) throws UsageException {
        if (optionIndex + 1 >= args.size()) {
            throw new UsageException(args.get(optionIndex) + " needs a value");
        }
        return args.get(optionIndex + 1);
    }

    private static int positiveInt(String option, String value) throws UsageException {
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
