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
 */
public final class SampleCatalog {
    /** Where modules list their samples. */
    public static final String RESOURCE = "META-INF/mpj/samples.properties";

    /** The key suffix of a sample's one-line description. */
    static final String ABOUT = ".about";

    private final Map<String, String> mainClassByName;
    private final Map<String, String> aboutByName;

    private SampleCatalog(Map<String, String> mainClassByName, Map<String, String> aboutByName) {
        this.mainClassByName = Collections.unmodifiableMap(new TreeMap<>(mainClassByName));
        this.aboutByName = Map.copyOf(aboutByName);
    }

    /** The samples every {@value #RESOURCE} visible to {@code loader} lists. */
    public static SampleCatalog load(ClassLoader loader) {
        Map<String, String> found = new TreeMap<>();
        Map<String, String> about = new TreeMap<>();
        try {
            Enumeration<URL> resources = loader.getResources(RESOURCE);
            while (resources.hasMoreElements()) {
                URL url = resources.nextElement();
                Properties entries = new Properties();
                try (InputStream in = url.openStream()) {
                    entries.load(in);
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
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the sample lists " + RESOURCE, e);
        }
        return new SampleCatalog(found, about);
    }

    /** A catalog with exactly these samples (name to main class). */
    public static SampleCatalog of(Map<String, String> mainClassByName) {
        return new SampleCatalog(mainClassByName, Map.of());
    }

    public Optional<String> mainClassOf(String name) {
        return Optional.ofNullable(mainClassByName.get(name));
    }

    /** The sample's one-line description, or its main class when it has none. */
    public String about(String name) {
        return aboutByName.getOrDefault(name, mainClassByName.getOrDefault(name, ""));
    }

    /** Sample names to main classes, sorted by name. */
    public Map<String, String> entries() {
        return mainClassByName;
    }
}
