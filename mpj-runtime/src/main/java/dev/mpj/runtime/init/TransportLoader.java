package dev.mpj.runtime.init;

import dev.mpj.runtime.spi.Transport;
import dev.mpj.runtime.spi.TransportProvider;
import mpi.MPIException;

import java.util.ServiceLoader;

/** Finds a transport implementation by name. */
final class TransportLoader {
    private TransportLoader() {
    }

    /**
     * The transport {@code name}: its provider by its known class name first (a service lookup opens every jar of
     * the class path, tens of milliseconds of a cold JVM's init), else the one registered with ServiceLoader.
     */
    static Transport load(String name) {
        String known = "shm".equals(name) ? "dev.mpj.transport.shm.ShmTransportProvider"
                : "dev.mpj.transport.tcp.TcpTransportProvider";
        try {
            TransportProvider p = (TransportProvider) Class.forName(known).getConstructor().newInstance();
            if (p.name().equals(name)) {
                return p.create();
            }
        } catch (ReflectiveOperationException | ClassCastException e) {
            // not on the class path under that name: look for it as a service
        }
        for (TransportProvider p : ServiceLoader.load(TransportProvider.class)) {
            if (p.name().equals(name)) {
                return p.create();
            }
        }
        throw new MPIException(MPIException.ERR_INTERN, "no '" + name + "' transport on the class path");
    }
}
