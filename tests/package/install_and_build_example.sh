#!/usr/bin/env bash
# Installs the built kbo into a fresh prefix, then configures, builds and runs examples/cpp against it
# with find_package(kbo) — what a C++ user does with `cmake --install`.
set -euo pipefail
build_dir=$1 source_dir=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake --install "$build_dir" --prefix "$work/prefix" >/dev/null
test -x "$work/prefix/bin/kbo"
"$work/prefix/bin/kbo" --help >/dev/null
cmake -S "$source_dir/examples/cpp" -B "$work/example" -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_PREFIX_PATH="$work/prefix" >/dev/null
cmake --build "$work/example" -j2 >/dev/null
"$work/example/minimize_branin"
