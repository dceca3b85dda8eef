"""The `kbo` console script of a pip-installed kbo: runs the command built with the module (kbo/bin/kbo)."""
import os
import pathlib
import sys


def main() -> None:
    command = pathlib.Path(__file__).resolve().parent / "bin" / "kbo"
    if not command.is_file():
        sys.exit(f"kbo: the kbo command is not installed with this module (expected {command}); "
                 "build it with CMake (build/kbo) or reinstall with `pip install .`")
    os.execv(command, [str(command), *sys.argv[1:]])
