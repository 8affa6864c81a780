package dev.mpj.runtime.config;

import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * The {@code mpj.tcp.interface} setting: which interface's address a rank's TCP listener binds and advertises, by
 * interface name ({@code eth0}, {@code ib0}) or by a CIDR block its address lies in ({@code 10.1.0.0/16},
 * {@code fd00::/8}), as Open MPI's {@code btl_tcp_if_include} and MPICH's {@code -iface} take them; or
 * {@code auto}. Only the form is checked here; which interfaces exist is asked when a job needs TCP.
 *
 * @param name         the interface name, or null
 * @param network      the CIDR block's address, or null
 * @param prefixLength the CIDR block's prefix length
 */
public record TcpInterface(String name, InetAddress network, int prefixLength) {
    /** No choice made: the runtime picks the address ({@code auto}). */
    public static final TcpInterface AUTO = new TcpInterface(null, null, 0);

    /** The characters of an interface name and of an address literal (no regex: every rank reads this setting). */
    private static final String NAME_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.:@-";
    private static final String LITERAL_CHARS = "0123456789ABCDEFabcdef.:";

    static TcpInterface parse(Setting setting, String text) {
        if (text.isEmpty() || text.equalsIgnoreCase("auto")) {
            return AUTO;
        }
        int slash = text.indexOf('/');
        if (slash < 0) {
            if (text.length() > 64 || !onlyOf(text, NAME_CHARS)) {
                throw invalid(setting, text);
            }
            return new TcpInterface(text, null, 0);
        }
        String address = text.substring(0, slash);
        // a literal only: getByName must not turn the setting into a DNS lookup
        if (address.isEmpty() || !onlyOf(address, LITERAL_CHARS)
                || !(address.contains(".") || address.contains(":"))) {
            throw invalid(setting, text);
        }
        InetAddress network;
        int bits;
        try {
            network = InetAddress.getByName(address);
            bits = Integer.parseInt(text.substring(slash + 1));
        } catch (UnknownHostException | NumberFormatException e) {
            throw invalid(setting, text);
        }
        if (bits < 0 || bits > network.getAddress().length * 8) {
            throw invalid(setting, text);
        }
        return new TcpInterface(null, network, bits);
    }

    /** Whether every character of {@code text} is one of {@code allowed}. */
    private static boolean onlyOf(String text, String allowed) {
        for (int i = 0; i < text.length(); i++) {
            if (allowed.indexOf(text.charAt(i)) < 0) {
                return false;
            }
        }
        return true;
    }

    private static IllegalArgumentException invalid(Setting setting, String text) {
        return new IllegalArgumentException(setting.property() + " must be an interface name (eth0) or a CIDR block"
                + " (10.1.0.0/16, fd00::/8), not '" + text + "'");
    }

    public boolean isAuto() {
        return name == null && network == null;
    }

    /** Whether {@code address} of the interface named {@code interfaceName} is one this setting selects. */
    public boolean selects(String interfaceName, InetAddress address) {
        if (name != null) {
            return name.equals(interfaceName);
        }
        if (network == null) {
            return false;
        }
        byte[] a = address.getAddress();
        byte[] n = network.getAddress();
        if (a.length != n.length) {
            return false;
        }
        for (int bit = 0; bit < prefixLength; bit++) {
            int mask = 0x80 >>> (bit % 8);
            if ((a[bit / 8] & mask) != (n[bit / 8] & mask)) {
                return false;
            }
        }
        return true;
    }

    @Override
    public String toString() {
        return name != null ? name : network != null ? network.getHostAddress() + "/" + prefixLength : "auto";
    }

    /** {@link #parse} as the setting's parser (a class: no lambda linkage while settings are read). */
    static final class Parser implements SettingParser<TcpInterface> {
        @Override
        public TcpInterface parse(Setting setting, String text) {
            return TcpInterface.parse(setting, text);
        }
    }
}
