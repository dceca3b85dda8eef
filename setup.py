"""Builds the extension kbo._kbo and the `kbo` command with the project's CMake build (see pyproject.toml).

The wheel holds the command as kbo/bin/kbo; the console script `kbo` (kbo._cli) runs it, so a venv gets the
`kbo` command as well as the module. CMake's output goes to the terminal (/dev/tty) when there is one, since
pip hides a build backend's output unless -v is given, and the C++ build takes minutes.

Environment: KBO_CMAKE_BUILD_DIR reuses an existing CMake build directory (its configuration is kept; default:
a directory under setuptools' build_temp); KBO_BUILD_JOBS sets the parallel build jobs (default: all CPUs)."""
import contextlib
import os
import pathlib
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = pathlib.Path(__file__).resolve().parent


class CMakeExtension(Extension):
    def __init__(self, name: str):
        super().__init__(name, sources=[])


@contextlib.contextmanager
def build_output():
    """The user's terminal if there is one (pip captures stdout/stderr), else inherited streams."""
    try:
        tty = open("/dev/tty", "w")
    except OSError:
        yield None
        return
    with tty:
        yield tty


class CMakeBuild(build_ext):
    def build_extension(self, ext: Extension) -> None:
        given = os.environ.get("KBO_CMAKE_BUILD_DIR")
        build_dir = pathlib.Path(given or pathlib.Path(self.build_temp) / "cmake").resolve()
        build_dir.mkdir(parents=True, exist_ok=True)
        jobs = os.environ.get("KBO_BUILD_JOBS", str(os.cpu_count() or 1))
        with build_output() as out:
            def run(cmd):
                print(f"kbo: {' '.join(cmd)}", file=out or sys.stderr, flush=True)
                subprocess.run(cmd, check=True, stdout=out, stderr=out)
            # A given build directory keeps its own configuration (e.g. the tests stay enabled).
            if not (given and (build_dir / "CMakeCache.txt").exists()):
                launcher = ["-DCMAKE_CXX_COMPILER_LAUNCHER=ccache"] if shutil.which("ccache") else []
                run(["cmake", "-S", str(ROOT), "-B", str(build_dir), "-DCMAKE_BUILD_TYPE=Release",
                     "-DKBO_BUILD_TESTS=OFF", f"-DPython_EXECUTABLE={sys.executable}", *launcher])
            run(["cmake", "--build", str(build_dir), "--target", "_kbo", "kbo", "-j", jobs])
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
