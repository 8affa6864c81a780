package dev.mpj.runtime.pmi;

/** Opens descriptor 0 as a rank under Hydra or Slurm opens {@code PMI_FD}, then says so: for a child JVM. */
public final class InheritedDescriptorMain {
    private InheritedDescriptorMain() {
    }

    public static void main(String[] args) {
        System.out.println("opened " + InheritedFileDescriptor.of(0).valid());
    }
}
