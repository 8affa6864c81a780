package dev.mpj.launcher;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.util.Collections;
import java.util.Enumeration;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;

/**
 * Short names of bundled programs ({@code mpjrun -np 4 ring}), read from every class-path resource
 * {@value #RESOURCE}: lines {@code name=fully.qualified.MainClass}, and {@code name.about=one line} for
 * {@code mpjrun --help}. The first resource on the class path that names a sample wins, as for any class-path
 * lookup.
 * <p>
 * A catalog {@link #load loaded} from a class loader looks a name up in the first resource alone, and reads every
 * resource only when that one does not name it (or for the whole list): finding them all opens every jar on the
 * class path, which the launcher otherwise never reads and which costs its start more than anything else before the
 * ranks are started.
 */
public final class SampleCatalog {
    /** Where modules list their samples. */
    public static final String RESOURCE = "META-INF/mpj/samples.properties";

    /** The key suffix of a sample's one-line description. */
    static final String ABOUT = ".about";

    /** Where the catalog comes from; null once every resource has been read. */
    private ClassLoader loader;
    private Map<String, String> mainClassByName;
    private Map<String, String> aboutByName;

    private SampleCatalog(ClassLoader loader) {
        this.loader = loader;
    }

    private SampleCatalog(Map<String, String> mainClassByName, Map<String, String> aboutByName) {
        this.mainClassByName = Collections.unmodifiableMap(new TreeMap<>(mainClassByName));
        this.aboutByName = Map.copyOf(aboutByName);
    }

    /** The samples every {@value #RESOURCE} visible to {@code loader} lists. */
    public static SampleCatalog load(ClassLoader loader) {
        return new SampleCatalog(loader);
    }

    /** A catalog with exactly these samples (name to main class). */
    public static SampleCatalog of(Map<String, String> mainClassByName) {
        return new SampleCatalog(mainClassByName, Map.of());
    }

    public synchronized Optional<String> mainClassOf(String name) {
        if (loader != null) {
            URL first = loader.getResource(RESOURCE);
            if (first == null) {
                return Optional.empty(); // no resource at all
            }
            Map<String, String> found = new TreeMap<>();
            read(first, found, new TreeMap<>());
            if (found.containsKey(name)) {
                return Optional.of(found.get(name)); // the first resource wins anyway
            }
        }
        return Optional.ofNullable(entries().get(name));
    }

    /** The sample's one-line description, or its main class when it has none. */
    public String about(String name) {
        Map<String, String> entries = entries();
        return aboutByName.getOrDefault(name, entries.getOrDefault(name, ""));
    }

    /** Sample names to main classes, sorted by name. */
    public synchronized Map<String, String> entries() {
        if (loader != null) {
            Map<String, String> found = new TreeMap<>();
            Map<String, String> about = new TreeMap<>();
            try {
                Enumeration<URL> resources = loader.getResources(RESOURCE);
                while (resources.hasMoreElements()) {
                    read(resources.nextElement(), found, about);
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read the sample lists " + RESOURCE, e);
            }
            mainClassByName = Collections.unmodifiableMap(found);
            aboutByName = Map.copyOf(about);
            loader = null;
        }
        return mainClassByName;
    }

    /** Adds the samples and descriptions of one resource that earlier ones did not name. */
    private static void read(URL url, Map<String, String> found, Map<String, String> about) {
        Properties entries = new Properties();
        try (InputStream in = url.openStream()) {
            entries.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the sample list " + url, e);
        }
        for (String name : entries.stringPropertyNames()) {
            if (name.endsWith(ABOUT)) {
                about.putIfAbsent(name.substring(0, name.length() - ABOUT.length()).trim(),
                        entries.getProperty(name).trim());
                continue;
            }
            String mainClass = entries.getProperty(name).trim();
            if (!LaunchOptions.isClassName(mainClass)) {
                throw new IllegalStateException(url + ": sample '" + name + "' names '" + mainClass
                        + "', which is not a class name");
            }
            found.putIfAbsent(name.trim(), mainClass);
        }
    }
}
