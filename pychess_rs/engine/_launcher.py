"""Starts an engine that cannot outlive the process that started it (Linux).

Run as ``python -I -S _launcher.py PARENT_PID SETPGRP EXECUTABLE ARGV0 ARG...`` by
:mod:`pychess_rs.engine._process`: it asks the kernel to send SIGKILL to this process when
the thread that started it ends (``prctl(PR_SET_PDEATHSIG)``; the setting survives
``execv``), gives up if that parent is already gone, optionally leaves the parent's process
group (``SETPGRP`` ``1``: Ctrl-C in a terminal then does not reach the engine), and becomes
the engine. It imports nothing beyond the standard library, so that it starts in
milliseconds and runs under any interpreter the package supports.
"""

import ctypes
import os
import signal
import sys

PR_SET_PDEATHSIG = 1


def main() -> None:
    parent, setpgrp, executable, *argv = sys.argv[1:]
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0) != 0:
        error = ctypes.get_errno()
        sys.stderr.write(f"pychess_rs engine launcher: prctl failed: {os.strerror(error)}\n")
    if os.getppid() != int(parent):
        # The parent died before the death signal was armed: nobody will read the engine.
        os._exit(1)
    if setpgrp == "1":
        os.setpgrp()
    # Python ignores these at start-up and an ignored signal stays ignored across execv;
    # the engine gets the defaults, as subprocess gives a child it starts directly.
    for name in ("SIGPIPE", "SIGXFSZ", "SIGXFZ"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), signal.SIG_DFL)
    try:
        os.execv(executable, argv)
    except OSError as error:
        sys.stderr.write(f"pychess_rs engine launcher: cannot run {executable!r}: {error}\n")
        os._exit(127)


if __name__ == "__main__":
    main()
