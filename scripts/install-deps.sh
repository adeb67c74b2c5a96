#!/usr/bin/env bash
# Install the Debian packages mpbridge needs to build, test, demo and
# benchmark. Does nothing (and prints nothing) when all of them are present.
#
# Set MPBRIDGE_SKIP_DEPS=1 to skip this step entirely.
set -euo pipefail

PACKAGES=(
    openmpi-bin libopenmpi-dev   # MPI: the one backend
    libclang-dev                 # bindgen for the MPI bindings
    gfortran                     # Fortran ABI tests
    pkg-config
    graphviz                     # Ensemble PCG drawings, benchmark plots
    pvm pvm-dev pvm-examples     # real PVM 3.4: comparison and acceptance binaries
    libglobalarrays-dev          # real GA: comparison
    libarmci-mpi-dev             # ...its ARMCI runtime (libarmci-openmpi.a)
    libscalapack-openmpi-dev     # ...and the ScaLAPACK it links against; HPF NUMROC check; GA linear algebra
    libopenblas-dev              # BLAS for GA dgemm
    python3 make
    python3-matplotlib           # benchmark figures (bench/plot.py)
    iproute2 util-linux mount hostname   # scripts/cluster.sh: hosts as namespaces
)

if [[ "${MPBRIDGE_SKIP_DEPS:-0}" == 1 ]]; then
    exit 0
fi

if ! command -v dpkg-query >/dev/null 2>&1; then
    echo "install-deps: this is not a Debian-based system; make sure equivalents of these are installed:" >&2
    echo "    ${PACKAGES[*]}" >&2
    exit 0
fi

missing=()
for pkg in "${PACKAGES[@]}"; do
    status=$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)
    if [[ "$status" != "install ok installed" ]]; then
        missing+=("$pkg")
    fi
done

if [[ ${#missing[@]} -eq 0 ]]; then
    exit 0
fi

if [[ $(id -u) -eq 0 ]]; then
    SUDO=()
elif command -v sudo >/dev/null 2>&1; then
    SUDO=(sudo)
else
    echo "install-deps: missing packages: ${missing[*]}" >&2
    echo "install-deps: not root and no sudo; install them as root:" >&2
    echo "    apt-get update && apt-get install -y --no-install-recommends ${missing[*]}" >&2
    exit 1
fi

echo "install-deps: installing ${missing[*]}"
"${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q
"${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive \
    apt-get install -y -q --no-install-recommends "${missing[@]}"
