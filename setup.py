"""Builds the extension kbo._kbo with the project's CMake build (see pyproject.toml).

Environment: KBO_CMAKE_BUILD_DIR reuses an existing CMake build directory (default: a directory under
setuptools' build_temp); KBO_BUILD_JOBS sets the parallel build jobs (default: all CPUs)."""
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


class CMakeBuild(build_ext):
    def build_extension(self, ext: Extension) -> None:
        build_dir = pathlib.Path(os.environ.get("KBO_CMAKE_BUILD_DIR", pathlib.Path(self.build_temp) / "cmake"))
        build_dir.mkdir(parents=True, exist_ok=True)
        subprocess.run(["cmake", "-S", str(ROOT), "-B", str(build_dir), "-DCMAKE_BUILD_TYPE=Release",
                        "-DKBO_BUILD_TESTS=OFF", f"-DPython_EXECUTABLE={sys.executable}"], check=True)
        jobs = os.environ.get("KBO_BUILD_JOBS", str(os.cpu_count() or 1))
        subprocess.run(["cmake", "--build", str(build_dir), "--target", "_kbo", "-j", jobs], check=True)
        built = next((build_dir / "python" / "kbo").glob("_kbo*.so"))
        target = pathlib.Path(self.get_ext_fullpath(ext.name))
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(built, target)


# setuptools' own scratch space: not build/ (the README's CMake build directory).
setup(ext_modules=[CMakeExtension("kbo._kbo")], cmdclass={"build_ext": CMakeBuild},
      options={"build": {"build_base": "build-pip"}})
