package dev.mpj.runtime.init;

import dev.mpj.runtime.config.Setting;
import dev.mpj.runtime.config.Settings;
import dev.mpj.runtime.init.TcpHostChoice.Candidate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

class TcpHostChoiceTest {
    /** lo, a down interface, eth0 with a link-local IPv6 address before its IPv4 one, ib0. */
    private static final List<Candidate> HOST = List.of(
            candidate("lo", true, true, "127.0.0.1"),
            candidate("docker0", false, false, "172.17.0.1"),
            candidate("eth0", true, false, "fe80::1"),
            candidate("eth0", true, false, "fd00::2"),
            candidate("eth0", true, false, "192.0.2.2"),
            candidate("ib0", true, false, "10.1.4.7"));

    private static Candidate candidate(String name, boolean up, boolean loopback, String address) {
        return new Candidate(name, up, loopback, ip(address));
    }

    private static InetAddress ip(String literal) {
        try {
            return InetAddress.getByName(literal);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException(e);
        }
    }

    /** A host named at {@code nameAddress} (null: the name does not resolve) with {@code candidates}. */
    private static TcpHostChoice.Host host(String nameAddress, List<Candidate> candidates) {
        return new TcpHostChoice.Host() {
            @Override
            public InetAddress nameAddress() {
                return nameAddress == null ? null : ip(nameAddress);
            }

            @Override
            public List<Candidate> candidates() {
                return candidates;
            }
        };
    }

    private static String choose(Settings settings, boolean spansHosts, String hostNameAddress) {
        return TcpHostChoice.choose(settings, spansHosts, host(hostNameAddress, HOST));
    }

    private static Settings interfaceSetting(String value) {
        return Settings.defaults().with(Setting.TCP_INTERFACE, value);
    }

    @Test
    void aJobOnOneHostUsesLoopbackWithoutLookingAtTheHost() {
        TcpHostChoice.Host untouchable = new TcpHostChoice.Host() {
            @Override
            public InetAddress nameAddress() {
                return fail("host name resolved for a job on one host");
            }

            @Override
            public List<Candidate> candidates() {
                return fail("interfaces listed for a job on one host");
            }
        };
        assertEquals("127.0.0.1", TcpHostChoice.choose(Settings.defaults(), false, untouchable));
    }

    @Test
    void aJobAcrossHostsUsesTheHostNamesAddressWhenItIsNotLoopback() {
        assertEquals("10.1.4.7", choose(Settings.defaults(), true, "10.1.4.7"));
    }

    @ParameterizedTest(name = "host name at {0}")
    @CsvSource(value = {"127.0.1.1", "NULL"}, nullValues = "NULL")
    void elseTheFirstUpNonLoopbackIpv4Address(String hostNameAddress) {
        assertEquals("192.0.2.2", choose(Settings.defaults(), true, hostNameAddress));
    }

    @Test
    void aHostWithOnlyLoopbackAdvertisesLoopback() {
        assertEquals("127.0.0.1", TcpHostChoice.choose(Settings.defaults(), true,
                host(null, List.of(candidate("lo", true, true, "127.0.0.1")))));
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({"ib0, 10.1.4.7", "lo, 127.0.0.1", "10.1.0.0/16, 10.1.4.7", "127.0.0.0/8, 127.0.0.1",
            "fd00::/8, fd00:0:0:0:0:0:0:2", "eth0, 192.0.2.2", "0.0.0.0/0, 127.0.0.1"})
    void theInterfaceSettingSelectsByNameOrCidrOnOneHostAndAcross(String setting, String expected) {
        assertEquals(expected, choose(interfaceSetting(setting), false, null));
        assertEquals(expected, choose(interfaceSetting(setting), true, "10.9.9.9"));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"10.2.0.0/16", "docker0", "wlan0"})
    void anInterfaceSettingThatSelectsNothingFailsNamingTheSettingAndTheInterfaces(String setting) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> choose(interfaceSetting(setting), true, null));
        assertTrue(e.getMessage().contains("mpj.tcp.interface=" + setting + " selects no address"), e.getMessage());
        assertTrue(e.getMessage().contains("ib0 10.1.4.7"), e.getMessage());
        assertTrue(!e.getMessage().contains("172.17.0.1"), "a down interface is no candidate: " + e.getMessage());
    }

    @Test
    void anExplicitHostWinsOverEverything() {
        Settings s = interfaceSetting("ib0").with(Setting.TCP_HOST, "192.0.2.9");
        assertEquals("192.0.2.9", choose(s, true, "10.1.4.7"));
    }
}
