package dev.mpj.runtime.pmi;

/** PMI-2 replies framed as real servers frame them (PMI.md §3.1): Hydra right-aligns the length, Slurm left-aligns it. */
enum Pmi2Frames {
    HYDRA {
        @Override
        String frame(String body) {
            return String.format("%6d", body.length()) + body;
        }

        @Override
        String fullinitResponse(int rank, int size) {
            return frame("cmd=fullinit-response;pmi-version=2;pmi-subversion=0;rank=" + rank + ";size=" + size
                    + ";appnum=0;debugged=FALSE;pmiverbose=FALSE;rc=0;");
        }

        @Override
        String responseToInit() {
            return "cmd=response_to_init pmi_version=2 pmi_subversion=0 rc=0";
        }

        @Override
        String ok(String command) {
            return frame("cmd=" + command + "-response;rc=0;");
        }

        @Override
        String found(String command, String value) {
            return frame("cmd=" + command + "-response;found=TRUE;value=" + value + ";rc=0;");
        }

        @Override
        String missing(String command) {
            return frame("cmd=" + command + "-response;found=FALSE;rc=0;");
        }

        @Override
        String jobId(String id) {
            return frame("cmd=job-getid-response;jobid=" + id + ";rc=0;");
        }
    },
    SLURM {
        @Override
        String frame(String body) {
            return String.format("%-6d", body.length()) + body;
        }

        @Override
        String fullinitResponse(int rank, int size) {
            return frame("cmd=fullinit-response;rc=0;pmi-version=2;pmi-subversion=0;rank=" + rank + ";size=" + size
                    + ";appnum=-1;debugged=FALSE;pmiverbose=FALSE;");
        }

        @Override
        String responseToInit() {
            return "cmd=response_to_init rc=0 pmi_version=2 pmi_subversion=0";
        }

        @Override
        String ok(String command) {
            return frame("cmd=" + command + "-response;rc=0;");
        }

        @Override
        String found(String command, String value) {
            return frame("cmd=" + command + "-response;rc=0;found=TRUE;value=" + value + ";");
        }

        @Override
        String missing(String command) {
            return frame("cmd=" + command + "-response;rc=0;found=FALSE;");
        }

        @Override
        String jobId(String id) {
            return frame("cmd=job-getid-response;rc=0;jobid=" + id + ";");
        }
    };

    abstract String frame(String body);

    abstract String responseToInit();

    abstract String fullinitResponse(int rank, int size);

    abstract String ok(String command);

    abstract String found(String command, String value);

    abstract String missing(String command);

    abstract String jobId(String id);
}
