#!/usr/bin/env bash
# The mpbridge showcase. Each layer adds one section: a function named
# demo_<layer> that prints its header with `section` and returns non-zero on
# failure, listed in SECTIONS below.
#
# Usage: scripts/demo.sh [SECTION...]     (default: every section)
#
# Environment:
#   MPBRIDGE_STAGE   installed tree to use (default target/stage)
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
STAGE=${MPBRIDGE_STAGE:-$ROOT/target/stage}
MPBRIDGE=$STAGE/bin/mpbridge
EXAMPLES=$ROOT/target/release

section() {
    printf '\n==== %s ====\n' "$*"
}

# Succeed when a showcase program has been built, otherwise say so.
need_program() {
    if [[ ! -x "$1" ]]; then
        echo "demo: showcase program $1 is missing; 'make build' builds it" >&2
        return 1
    fi
}

demo_core() {
    section "core: four ranks around a ring on one MPI backend"
    local prog=$EXAMPLES/core_ring
    need_program "$prog" || return 1
    "$MPBRIDGE" run -n 4 "$prog"
}

demo_pvm() {
    section "PVM: Debian's unchanged pvm-examples binaries on mpbridge"
    need_program /usr/bin/spmd || return 1
    echo "-- spmd, 4 ranks (token ring over pvm_siblings)"
    "$MPBRIDGE" run -n 4 /usr/bin/spmd || return 1
    echo "-- master1, 1 rank: spawns 3 slave1 tasks by name"
    PATH=/usr/bin:$PATH "$MPBRIDGE" run -n 1 /usr/bin/master1 || return 1
    echo "-- the same with the slaves pre-launched (MPMD): pvm_spawn claims them"
    "$MPBRIDGE" run -n 1 /usr/bin/master1 : -n 3 /usr/bin/slave1 || return 1
    echo "-- the safe Rust API: a typed token ring"
    need_program "$EXAMPLES/examples/pvm_ring" || return 1
    "$MPBRIDGE" run -n 4 "$EXAMPLES/examples/pvm_ring"
}

demo_ensemble() {
    section "Ensemble: the published Get-Maximum compositions, one set of components"
    local share=$STAGE/share/mpbridge/ensemble
    local bin=$ROOT/target/demo-ensemble
    if [[ ! -f "$share/Makefile" ]]; then
        echo "demo: $share/Makefile is missing (run 'make stage')" >&2
        return 1
    fi
    # As a user does: copy the installed components, build them with their
    # Makefile (mpicc and pkg-config).
    mkdir -p "$bin"
    cp "$share"/*.c "$share/Makefile" "$bin/"
    make -C "$bin" PKG_CONFIG_PATH="$STAGE/lib/pkgconfig" || return 1
    # The published scripts name the authors' machines: map them all here.
    printf '* localhost\n' >"$bin/hosts"
    echo "-- the star of relays (published script, unchanged) on the PVM loader"
    "$MPBRIDGE" ensemble run "$share/examples/published/getmax-star.ens" \
        --path "$bin" --hostmap "$bin/hosts" || return 1
    echo "-- the same terminal executable on MPI: three servers in a ring, each with its terminals"
    "$MPBRIDGE" ensemble run "$share/examples/getmax-mpi-servers.ens" --path "$bin" || return 1
    echo "-- the process graph of the tree composition: $bin/getmax-tree.svg"
    "$MPBRIDGE" ensemble draw "$share/examples/published/getmax-tree.ens" -o "$bin/getmax-tree.svg"
}

demo_ga() {
    section "PVM, TCGMSG and Global Arrays in one process, beside one ga-server"
    local bin=$ROOT/target/demo-ga
    mkdir -p "$bin"
    mpicc -O1 -I "$STAGE/include" -o "$bin/one_backend" \
        "$ROOT/tests/programs/one_backend/one_backend.c" \
        -L "$STAGE/lib" -Wl,-rpath,"$STAGE/lib" -lpvm3 -ltcgmsg -lga || return 1
    echo "-- 3 compute ranks: PVM and TCGMSG rings, NXTVAL, GA put/get and read_inc"
    "$MPBRIDGE" run --ga-servers -n 3 "$bin/one_backend"
}

SECTIONS=(core pvm ga ensemble)

if [[ ! -x "$MPBRIDGE" ]]; then
    echo "demo: $MPBRIDGE not found (run 'make stage' first)" >&2
    exit 1
fi

selected=("$@")
[[ ${#selected[@]} -gt 0 ]] || selected=("${SECTIONS[@]}")

failed=()
for name in "${selected[@]}"; do
    if ! declare -F "demo_$name" >/dev/null; then
        echo "demo: unknown section '$name' (known: ${SECTIONS[*]})" >&2
        exit 2
    fi
    "demo_$name" || failed+=("$name")
done

echo
if [[ ${#failed[@]} -gt 0 ]]; then
    echo "demo: failed: ${failed[*]}" >&2
    exit 1
fi
echo "demo: all sections ran"
