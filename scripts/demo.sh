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

SECTIONS=(core)

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
