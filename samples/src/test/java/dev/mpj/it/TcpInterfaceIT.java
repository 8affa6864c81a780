package dev.mpj.it;

import dev.mpj.runtime.bootstrap.BusinessCard;
import dev.mpj.transport.tcp.TcpAddress;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.HexFormat;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code mpj.tcp.interface} on two fake nodes, which talk over TCP: an interface name or a CIDR block picks the
 * address every rank advertises (read back from its business card), the ranks reach each other at it, and a
 * block that matches no interface fails {@code MPI.Init} saying so.
 */
@Timeout(120)
@Tag("multi-jvm")
class TcpInterfaceIT {
    private static final Pattern CARD = Pattern.compile("cardtable rank (\\d+) .* card ([0-9a-f]+) exchange");

    private static Job.Result run(String tcpInterface) {
        return Job.np(2).launcherOptions("--fake-nodes", "2").env("MPJ_TCP_INTERFACE", tcpInterface).timeout(60)
                .run(CardTableProgram.class);
    }

    /** The TCP address each rank advertised, by rank. */
    private static List<String> advertised(Job.Result r) {
        String[] hosts = new String[2];
        Matcher m = CARD.matcher(r.out());
        while (m.find()) {
            byte[] card = HexFormat.of().parseHex(m.group(2));
            hosts[Integer.parseInt(m.group(1))] = TcpAddress.decode(BusinessCard.decode(card).address()).host()
                    .getHostAddress();
        }
        return List.of(String.valueOf(hosts[0]), String.valueOf(hosts[1]));
    }

    private static void assertRanAdvertising(Job.Result r, String address) {
        assertEquals(0, r.exitCode(), r::toString);
        assertEquals(2, r.linesContaining("cardtable OK rank"), r::toString);
        assertEquals(List.of(address, address), advertised(r), r::toString);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"127.0.0.0/8", "lo"})
    void loopbackByCidrOrNameIsAdvertisedAndWorks(String tcpInterface) {
        assertRanAdvertising(run(tcpInterface), "127.0.0.1");
    }

    @Test
    void aCidrThatMatchesNoInterfaceFailsInitNamingTheSetting() {
        Job.Result r = run("198.51.100.0/24"); // TEST-NET-2: no host's interface
        assertNotEquals(0, r.exitCode(), r::toString);
        assertTrue(r.err().contains("mpj.tcp.interface=198.51.100.0/24 selects no address of this host's up"
                + " interfaces ("), r::toString);
        assertTrue(r.err().contains("lo 127.0.0.1"), r::toString);
        assertTrue(r.leftovers().isEmpty(), () -> "rank JVMs left behind\n" + r);
    }
}
