#!/usr/bin/env bash
# Makes sure the build tools are here, installing only what is missing (Debian packages or PyPI).
# Works offline when everything is already installed. Source it: it exports GRAPHGEMM_CMAKE_ARGS.
#   need_gtest=1 source scripts/setup.sh
set -euo pipefail

note() { echo "[setup] $*" >&2; }
have() { command -v "$1" >/dev/null 2>&1; }
apt_install() {
  have apt-get || return 1
  if [ "$(id -u)" != 0 ]; then note "not root: cannot apt-get install $*"; return 1; fi
  if [ -z "${GRAPHGEMM_APT_UPDATED:-}" ]; then apt-get update -qq >/dev/null 2>&1 || true; export GRAPHGEMM_APT_UPDATED=1; fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null 2>&1
}
pip_install() { python3 -m pip install -q --disable-pip-version-check "$@" >/dev/null 2>&1; }
version_ge() { [ "$(printf '%s\n%s\n' "$2" "$1" | sort -V | head -n1)" = "$2" ]; }

# C++ compiler
if ! have g++; then note "installing g++"; apt_install g++ || { note "no g++ and could not install it"; exit 1; }; fi

# CUDA toolkit (nvcc): cannot be installed from here; say where to get it.
if ! have nvcc && [ -x /usr/local/cuda/bin/nvcc ]; then export PATH=/usr/local/cuda/bin:$PATH; fi
if ! have nvcc; then note "nvcc not found: install the CUDA 13 toolkit (https://developer.nvidia.com/cuda-downloads) and put its bin/ on PATH"; exit 1; fi

# CMake >= 3.28 (the first that knows nvcc 13); PyPI has it when the system one is older.
cmake_ok() { have cmake && version_ge "$(cmake --version | head -n1 | awk '{print $3}')" 3.28; }
if ! cmake_ok; then
  note "installing cmake>=3.28 from PyPI"
  pip_install "cmake>=3.28" || pip_install --user "cmake>=3.28" || true
  hash -r
  export PATH="$HOME/.local/bin:$PATH"
fi
cmake_ok || { note "CMake >= 3.28 is needed (pip install cmake)"; exit 1; }

# Ninja (optional: faster builds)
if ! have ninja; then pip_install ninja || apt_install ninja-build || true; hash -r; fi
GRAPHGEMM_CMAKE_ARGS=()
if have ninja; then GRAPHGEMM_CMAKE_ARGS+=(-G Ninja); fi

# GoogleTest, for the test command only.
if [ "${need_gtest:-0}" = 1 ]; then
  here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
  if [ ! -f /usr/lib/x86_64-linux-gnu/cmake/GTest/GTestConfig.cmake ] && [ ! -f /usr/src/googletest/CMakeLists.txt ] \
     && [ ! -f "$here/.deps/googletest/CMakeLists.txt" ] && ! ls /usr/lib/*/cmake/GTest/GTestConfig.cmake >/dev/null 2>&1; then
    note "installing GoogleTest (libgtest-dev)"
    apt_install libgtest-dev || { note "GoogleTest not found and could not be installed: apt-get install libgtest-dev, or put its source in .deps/googletest"; exit 1; }
  fi
fi
# cuobjdump and nvdisasm, for the test command's SASS check (tests/CMakeLists.txt:
# sass.mainloop_uniform_datapath); a toolkit without them (this project's build machines) gets
# NVIDIA's PyPI wheels of both in .deps/cuda-binutils.
if [ "${need_gtest:-0}" = 1 ] && ! { have cuobjdump && have nvdisasm; }; then
  here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
  bin="$here/.deps/cuda-binutils/nvidia/cu13/bin"
  if [ ! -x "$bin/cuobjdump" ] || [ ! -x "$bin/nvdisasm" ]; then
    note "installing cuobjdump and nvdisasm (PyPI: nvidia-cuda-cuobjdump, nvidia-cuda-nvdisasm) into .deps/cuda-binutils"
    pip_install --target "$here/.deps/cuda-binutils" "nvidia-cuda-cuobjdump==13.5.37" "nvidia-cuda-nvdisasm==13.5.37" ||
      note "could not install cuobjdump / nvdisasm: the SASS check will report as skipped"
  fi
  if [ -x "$bin/cuobjdump" ] && [ -x "$bin/nvdisasm" ]; then export PATH="$bin:$PATH"; fi
fi
# Python: nanobind to build graphgemm._C, pytest and numpy to test it (for the test command only).
if [ "${need_python:-0}" = 1 ]; then
  for mod in nanobind pytest numpy; do
    python3 -c "import $mod" 2>/dev/null || { note "installing $mod from PyPI"; pip_install "$mod" || note "could not install $mod"; }
  done
fi
export GRAPHGEMM_CMAKE_ARGS
