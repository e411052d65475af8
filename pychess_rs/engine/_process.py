"""Engine processes: finding the program, starting it so that it cannot outlive us, ending it.

On Linux every engine is started through :mod:`pychess_rs.engine._launcher`, which arms
``PR_SET_PDEATHSIG`` before it becomes the engine: when the thread that started the engine
ends, including when the whole Python process is killed with SIGKILL, the kernel kills the
engine too. Elsewhere the engine is ended by the handle's finaliser and at interpreter exit
only (see :class:`~pychess_rs.engine.SimpleEngine`).

The death signal follows the *thread* that forked, so the blocking client
(:mod:`pychess_rs.engine._uci_sync`), which has no thread of its own per engine, starts its
engines through :func:`popen` from one thread that lives as long as the process: an engine
started by a short-lived caller thread must not die with that thread.

The program is looked up here, before anything starts, so that a missing engine raises
:exc:`FileNotFoundError` as it would from :mod:`subprocess`.
"""

from __future__ import annotations

import concurrent.futures
import errno
import os
import queue
import shutil
import signal
import subprocess
import sys
import threading
from typing import Any, Protocol

__all__ = ["command_argv", "kill", "popen", "spawn_arguments"]

_LAUNCHER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_launcher.py")


def command_argv(command: str | list[str]) -> list[str]:
    """The argument vector of ``command``: a program name, or its argv as a list."""
    if isinstance(command, (str, bytes, os.PathLike)):
        return [os.fsdecode(command)]
    argv = [os.fsdecode(part) for part in command]
    if not argv:
        raise ValueError("empty engine command")
    return argv


def resolve(program: str, popen_args: dict[str, Any]) -> str:
    """The file ``program`` names, found as the child would find it: on ``PATH`` (the one of
    ``popen_args["env"]`` if given) for a bare name, relative to ``popen_args["cwd"]``
    otherwise.

    :raises: :exc:`FileNotFoundError` when there is no such program.
    """
    cwd = popen_args.get("cwd")
    if os.sep in program or (os.altsep and os.altsep in program):
        path = program
        if cwd is not None and not os.path.isabs(path):
            path = os.path.join(os.fsdecode(cwd), path)
        if not os.path.exists(path):
            raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), program)
        return os.path.abspath(path)
    env = popen_args.get("env")
    search = env.get("PATH") if env is not None else os.environ.get("PATH", os.defpath)
    found = shutil.which(program, path=search)
    if found is None:
        raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), program)
    return os.path.abspath(found)


def _launcher_usable() -> bool:
    return sys.platform.startswith("linux") and bool(sys.executable)


def spawn_arguments(
    argv: list[str], *, setpgrp: bool, popen_args: dict[str, Any]
) -> tuple[list[str], dict[str, Any]]:
    """The argument vector and keyword arguments for ``loop.subprocess_exec`` that start the
    engine ``argv`` with pipes for its standard input and output.

    :raises: :exc:`FileNotFoundError` when the program does not exist.
    """
    kwargs = dict(popen_args)
    kwargs.setdefault("stdin", subprocess.PIPE)
    kwargs.setdefault("stdout", subprocess.PIPE)
    executable = resolve(argv[0], kwargs)
    if _launcher_usable():
        launch = [sys.executable, "-I", "-S", _LAUNCHER, str(os.getpid()), "1" if setpgrp else "0"]
        return [*launch, executable, *argv], kwargs
    if setpgrp:
        if sys.platform == "win32":
            flag = subprocess.CREATE_NEW_PROCESS_GROUP  # type: ignore[attr-defined]
            kwargs["creationflags"] = kwargs.get("creationflags", 0) | flag
        elif sys.version_info >= (3, 11):
            kwargs["process_group"] = 0
        else:
            kwargs["start_new_session"] = True
    kwargs.setdefault("executable", executable)
    return list(argv), kwargs


_Request = tuple[list[str], dict[str, Any], "concurrent.futures.Future[subprocess.Popen[bytes]]"]
_spawner: tuple[int, queue.SimpleQueue[_Request]] | None = None
_spawner_lock = threading.Lock()


def _spawn_forever(requests: queue.SimpleQueue[_Request]) -> None:
    while True:
        argv, kwargs, future = requests.get()
        try:
            future.set_result(subprocess.Popen(argv, **kwargs))  # type: ignore[arg-type]
        except BaseException as error:
            future.set_exception(error)


def _requests() -> queue.SimpleQueue[_Request]:
    """The queue of the spawning thread of this process (started on first use, and again in
    a child made by ``fork``, which inherits no threads)."""
    global _spawner
    with _spawner_lock:
        if _spawner is None or _spawner[0] != os.getpid():
            requests: queue.SimpleQueue[_Request] = queue.SimpleQueue()
            thread = threading.Thread(
                target=_spawn_forever,
                args=(requests,),
                name="pychess_rs engine spawner",
                daemon=True,
            )
            thread.start()
            _spawner = (os.getpid(), requests)
        return _spawner[1]


def popen(argv: list[str], kwargs: dict[str, Any]) -> subprocess.Popen[bytes]:
    """``subprocess.Popen(argv, **kwargs)`` (arguments from :func:`spawn_arguments`), made
    by a thread that lives as long as this process when the death signal is in use.

    :raises: what :class:`subprocess.Popen` raises.
    """
    if not _launcher_usable():
        return subprocess.Popen(argv, **kwargs)
    future: concurrent.futures.Future[subprocess.Popen[bytes]] = concurrent.futures.Future()
    _requests().put((argv, kwargs, future))
    return future.result()


class _Process(Protocol):
    def get_pid(self) -> int: ...

    def get_returncode(self) -> int | None: ...

    def kill(self) -> None: ...


def kill(transport: _Process, *, group: bool) -> None:
    """SIGKILL for the engine (and its process group when it has its own), at once; safe to
    call from any thread and on an engine that has already ended.

    The signal is sent with :func:`os.kill` rather than ``transport.kill()``, which polls
    (and so may reap) the process outside the event loop's child watcher."""
    if transport.get_returncode() is not None:
        return
    if sys.platform == "win32":
        try:
            transport.kill()
        except ProcessLookupError:
            pass
        return
    pid = transport.get_pid()
    try:
        if group:
            os.killpg(pid, signal.SIGKILL)
        else:
            os.kill(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
