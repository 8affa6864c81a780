package dev.mpj.runtime.pmi;

/** The reply lines of a real PMI-1 server, exactly as received live (PMI.md §2.2). */
enum PmiServerStyle {
    HYDRA {
        @Override
        String responseToInit() {
            return "cmd=response_to_init pmi_version=1 pmi_subversion=1 rc=0";
        }

        @Override
        String maxes() {
            return "cmd=maxes kvsname_max=256 keylen_max=64 vallen_max=1024";
        }

        @Override
        String myKvsName(String kvs) {
            return "cmd=my_kvsname kvsname=" + kvs;
        }

        @Override
        String putResult() {
            return "cmd=put_result rc=0 msg=success";
        }

        @Override
        String getFound(String value) {
            return "cmd=get_result rc=0 msg=success value=" + value;
        }

        @Override
        String getMissing(String key) {
            return "cmd=get_result rc=-1 msg=key_" + key + "_not_found value=unknown";
        }

        @Override
        String barrierOut() {
            return "cmd=barrier_out";
        }

        @Override
        String finalizeAck() {
            return "cmd=finalize_ack";
        }
    },
    SLURM {
        @Override
        String responseToInit() {
            return "cmd=response_to_init rc=0 pmi_version=1 pmi_subversion=1";
        }

        @Override
        String maxes() {
            return "cmd=maxes rc=0 kvsname_max=256 keylen_max=64 vallen_max=1024";
        }

        @Override
        String myKvsName(String kvs) {
            return "cmd=my_kvsname rc=0 kvsname=" + kvs;
        }

        @Override
        String putResult() {
            return "cmd=put_result rc=0";
        }

        @Override
        String getFound(String value) {
            return "cmd=get_result rc=0 value=" + value;
        }

        @Override
        String getMissing(String key) {
            return "cmd=get_result rc=1";
        }

        @Override
        String barrierOut() {
            return "cmd=barrier_out rc=0";
        }

        @Override
        String finalizeAck() {
            return "cmd=finalize_ack rc=0";
        }
    };

    abstract String responseToInit();

    abstract String maxes();

    abstract String myKvsName(String kvs);

    abstract String putResult();

    abstract String getFound(String value);

    abstract String getMissing(String key);

    abstract String barrierOut();

    abstract String finalizeAck();
}
