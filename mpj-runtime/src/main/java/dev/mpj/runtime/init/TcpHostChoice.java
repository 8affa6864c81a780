package dev.mpj.runtime.init;

import dev.mpj.runtime.config.Setting;
import dev.mpj.runtime.config.Settings;
import dev.mpj.runtime.config.TcpInterface;
import dev.mpj.runtime.node.HostIdentityExchange;
import dev.mpj.runtime.spi.TcpOptions;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The address a rank's TCP listener binds and advertises: {@code mpj.tcp.host} when set; else the address that
 * {@code mpj.tcp.interface} selects; else, when the job spans hosts, the host name's address unless it is a
 * loopback address, else the first address of the first up, non-loopback interface; else 127.0.0.1. IPv4 comes
 * before IPv6 (cards of one form need no length agreement) and link-local IPv6 addresses, which need a scope,
 * are never chosen. Decision 0021.
 */
final class TcpHostChoice {
    /** One address of one interface of this host. */
    record Candidate(String interfaceName, boolean up, boolean loopback, InetAddress address) {
        @Override
        public String toString() {
            return interfaceName + " " + address.getHostAddress();
        }
    }

    /** What the choice may ask of this host, only when it needs to. */
    interface Host {
        /** This host's name resolved, or null where it does not resolve. */
        InetAddress nameAddress();

        /** Every address of every interface of this host. */
        List<Candidate> candidates();
    }

    /** This machine, through the resolver and {@link NetworkInterface}. */
    static final Host SYSTEM = new Host() {
        @Override
        public InetAddress nameAddress() {
            return hostNameAddress(HostIdentityExchange.localHostIdentity());
        }

        @Override
        public List<Candidate> candidates() {
            return systemCandidates();
        }
    };

    private TcpHostChoice() {
    }

    /**
     * @param spansHosts whether the job's nodes may be different hosts (several nodes, not pretend ones)
     * @throws IllegalArgumentException when {@code mpj.tcp.interface} selects no address
     */
    static String choose(Settings settings, boolean spansHosts, Host host) {
        if (!settings.tcpHostIsAuto()) {
            return settings.tcpHost();
        }
        TcpInterface wanted = settings.tcpInterface();
        if (!wanted.isAuto()) {
            List<Candidate> all = host.candidates();
            return usable(all).filter(c -> wanted.selects(c.interfaceName(), c.address())).findFirst()
                    .map(c -> c.address().getHostAddress())
                    .orElseThrow(() -> new IllegalArgumentException(Setting.TCP_INTERFACE.property() + "=" + wanted
                            + " selects no address of this host's up interfaces (" + describe(all) + ")"));
        }
        if (!spansHosts) {
            return TcpOptions.LOOPBACK;
        }
        InetAddress named = host.nameAddress();
        if (named != null && !named.isLoopbackAddress() && !named.isAnyLocalAddress()
                && !named.isLinkLocalAddress()) {
            return named.getHostAddress();
        }
        return usable(host.candidates()).filter(c -> !c.loopback()).findFirst()
                .map(c -> c.address().getHostAddress()).orElse(TcpOptions.LOOPBACK);
    }

    /** Whether the address {@code host} names is a loopback one (a literal, or a name resolved). */
    static boolean isLoopback(String host) {
        InetAddress a = hostNameAddress(host);
        return a != null && a.isLoopbackAddress();
    }

    /** Up addresses a peer can use, IPv4 first, otherwise in the order given. */
    private static Stream<Candidate> usable(List<Candidate> all) {
        return all.stream().filter(Candidate::up).filter(c -> !c.address().isLinkLocalAddress())
                .sorted(Comparator.comparing(c -> c.address() instanceof Inet4Address ? 0 : 1));
    }

    private static String describe(List<Candidate> all) {
        String up = all.stream().filter(Candidate::up).map(Candidate::toString).collect(Collectors.joining(", "));
        return up.isEmpty() ? "none" : up;
    }

    /** {@code hostName} resolved (a literal is parsed, a name asks the resolver), or null. */
    static InetAddress hostNameAddress(String hostName) {
        try {
            return InetAddress.getByName(hostName);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** Every address of every interface of this host, interfaces in index order. */
    private static List<Candidate> systemCandidates() {
        List<Candidate> all = new ArrayList<>();
        try {
            List<NetworkInterface> nics = Collections.list(NetworkInterface.getNetworkInterfaces());
            nics.sort(Comparator.comparingInt(NetworkInterface::getIndex));
            for (NetworkInterface nic : nics) {
                boolean up = nic.isUp();
                boolean loopback = nic.isLoopback();
                for (InetAddress a : Collections.list(nic.getInetAddresses())) {
                    all.add(new Candidate(nic.getName(), up, loopback || a.isLoopbackAddress(), a));
                }
            }
        } catch (SocketException e) {
            // no interface list: only the host name or loopback remain
        }
        return all;
    }
}
