package dev.mpj.launcher;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The hosts of {@code -hosts a:2,b:2} (Hydra), {@code -host a,b} (Open MPI) and machinefiles ({@code -f},
 * {@code -machinefile}, {@code --hostfile}), each with its slot count, in the order given.
 */
final class HostList {
    /** One host and how many ranks it takes (1 when not said). */
    record Host(String name, int slots) {
    }

    private static final Pattern HOST_COLON_SLOTS = Pattern.compile("([^\\s:,]+)(?::(\\S+))?");
    private static final Pattern SLOTS_KEY = Pattern.compile("slots=(\\S+)");

    private HostList() {
    }

    /** Parses {@code a,b} or {@code a:2,b:2}. */
    static List<Host> parseList(String option, String list) throws UsageException {
        List<Host> hosts = new ArrayList<>();
        for (String entry : list.split(",", -1)) {
            hosts.add(parseEntry(option, entry.trim()));
        }
        return hosts;
    }

    /**
     * Parses a machinefile: one host a line, as {@code host}, {@code host:n} (Hydra) or {@code host slots=n}
     * (Open MPI; other {@code key=value} words are ignored); {@code #} starts a comment; blank lines are skipped.
     */
    static List<Host> parseMachinefile(String option, Path file) throws UsageException {
        List<String> lines;
        try {
            lines = Files.readAllLines(file);
        } catch (IOException e) {
            throw new UsageException(option + ": cannot read " + file + ": " + e.getMessage());
        }
        List<Host> hosts = new ArrayList<>();
        for (String raw : lines) {
            int hash = raw.indexOf('#');
            String line = (hash >= 0 ? raw.substring(0, hash) : raw).trim();
            if (line.isEmpty()) {
                continue;
            }
            String[] words = line.split("\\s+");
            Host host = parseEntry(option, words[0]);
            for (int w = 1; w < words.length; w++) {
                Matcher m = SLOTS_KEY.matcher(words[w]);
                if (m.matches()) {
                    host = new Host(host.name(), slots(option, words[0], m.group(1)));
                }
            }
            hosts.add(host);
        }
        if (hosts.isEmpty()) {
            throw new UsageException(option + ": " + file + " names no host");
        }
        return hosts;
    }

    /** Whether {@code name} is this machine: {@code localhost}, a loopback address, or this host's own name. */
    static boolean isThisMachine(String name) {
        String n = name.toLowerCase(Locale.ROOT);
        return n.equals("localhost") || n.startsWith("127.") || n.equals("::1") || ownNames().contains(n);
    }

    private static Set<String> ownNames() {
        Set<String> names = new HashSet<>();
        try {
            InetAddress local = InetAddress.getLocalHost();
            String host = local.getHostName().toLowerCase(Locale.ROOT);
            names.add(host);
            names.add(host.contains(".") ? host.substring(0, host.indexOf('.')) : host);
            names.add(local.getHostAddress());
        } catch (IOException e) {
            // no name of its own: only localhost and loopback addresses count
        }
        return names;
    }

    private static Host parseEntry(String option, String entry) throws UsageException {
        Matcher m = HOST_COLON_SLOTS.matcher(entry);
        if (!m.matches()) {
            throw new UsageException(option + " needs host names as NAME or NAME:SLOTS, not '" + entry + "'");
        }
        return new Host(m.group(1), m.group(2) == null ? 1 : slots(option, entry, m.group(2)));
    }

    private static int slots(String option, String entry, String value) throws UsageException {
        return LaunchOptions.positiveInt(option + ": the slot count of '" + entry + "'", value);
    }
}
