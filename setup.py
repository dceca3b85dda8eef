"""Builds the extension kbo._kbo and the `kbo` command with the project's CMake build (see pyproject.toml).

The wheel holds the command as kbo/bin/kbo; the console script `kbo` (kbo._cli) runs it, so a venv gets the
`kbo` command as well as the module. pip hides a build backend's output unless -v is given, and the C++ build
takes minutes, so CMake's output goes to the terminal (/dev/tty) when the build has one. Without a terminal
(CI, a log file, a program running pip) it goes to pip, which then prints "still running..." at most once a
minute for each line it receives; a heartbeat line every 30 s keeps that coming through long compiles, and
`pip install -v` shows all of it.

Environment: KBO_CMAKE_BUILD_DIR reuses an existing CMake build directory (its configuration is kept; default:
a directory under setuptools' build_temp); KBO_BUILD_JOBS sets the parallel build jobs (default: all CPUs)."""
import contextlib
import os
import pathlib
import shutil
import subprocess
import sys
import threading
import time

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = pathlib.Path(__file__).resolve().parent


class CMakeExtension(Extension):
    def __init__(self, name: str):
        super().__init__(name, sources=[])


def open_terminal():
    """The user's terminal, or None when the build has none (then pip captures stdout/stderr)."""
    try:
        return open("/dev/tty", "w")
    except OSError:
        return None


@contextlib.contextmanager
def heartbeat(out, seconds: float = 30.0):
    """A line every `seconds` while the body runs: pip's progress message counts lines."""
    started = time.monotonic()
    done = threading.Event()

    def beat():
        while not done.wait(seconds):
            print(f"kbo: still building ({(time.monotonic() - started) / 60:.1f} min)", file=out, flush=True)

    thread = threading.Thread(target=beat, daemon=True)
    thread.start()
    try:
        yield
    finally:
        done.set()
        thread.join()


class CMakeBuild(build_ext):
    def build_extension(self, ext: Extension) -> None:
        given = os.environ.get("KBO_CMAKE_BUILD_DIR")
        build_dir = pathlib.Path(given or pathlib.Path(self.build_temp) / "cmake").resolve()
        build_dir.mkdir(parents=True, exist_ok=True)
        jobs = os.environ.get("KBO_BUILD_JOBS", str(os.cpu_count() or 1))
        tty = open_terminal()
        out = tty or sys.stdout
        # CMake writes to the terminal, or to the stream pip reads (stdout and stderr are one pipe there).
        streams = dict(stdout=tty, stderr=tty) if tty else dict(stdout=sys.stdout, stderr=sys.stdout)

        def run(cmd):
            print(f"kbo: {' '.join(cmd)}", file=out, flush=True)
            code = subprocess.run(cmd, **streams).returncode
            if code != 0:  # one line, not a traceback: CMake's own output above says what went wrong
                where = "on the terminal" if tty else "above"
                raise SystemExit(f"kbo: `{' '.join(cmd[:2])}` failed (exit code {code}); its output is {where}")

        try:
            with heartbeat(out) if tty is None else contextlib.nullcontext():
                # A given build directory keeps its own configuration (e.g. the tests stay enabled).
                if not (given and (build_dir / "CMakeCache.txt").exists()):
                    launcher = ["-DCMAKE_CXX_COMPILER_LAUNCHER=ccache"] if shutil.which("ccache") else []
                    run(["cmake", "-S", str(ROOT), "-B", str(build_dir), "-DCMAKE_BUILD_TYPE=Release",
                         "-DKBO_BUILD_TESTS=OFF", f"-DPython_EXECUTABLE={sys.executable}", *launcher])
                run(["cmake", "--build", str(build_dir), "--target", "_kbo", "kbo", "-j", jobs])
        finally:
            if tty:
                tty.close()
        built = next((build_dir / "python" / "kbo").glob("_kbo*.so"))
        target = pathlib.Path(self.get_ext_fullpath(ext.name))
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(built, target)
        command = target.parent / "bin" / "kbo"
        command.parent.mkdir(exist_ok=True)
        shutil.copy2(build_dir / "kbo", command)


# setuptools' own scratch space: not build/ (the README's CMake build directory).
setup(ext_modules=[CMakeExtension("kbo._kbo")], cmdclass={"build_ext": CMakeBuild},
      options={"build": {"build_base": "build-pip"}})
