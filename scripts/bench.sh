#!/usr/bin/env bash
# Runs the mpbridge benchmarks against the staged library, writes
# target/bench/results.csv and target/bench/results.svg, and checks the
# performance targets.  Run through `make bench` (which stages first), or
# directly after `make stage`.
#
# usage: scripts/bench.sh [LAYER...]      (default: every layer in LAYERS)
#
# Environment:
#   MPB_STAGE        staged install to test      (default: target/stage)
#   MPB_BENCH_OUT    output directory            (default: target/bench)
#   MPB_BENCH_TIMEOUT  seconds per mpiexec job   (default: 300)
#
# Adding a layer: write a function bench_<layer> that builds its programs
# into "$OUT" and appends rows to "$CSV" (same columns as CSV_HEADER), add
# the layer to LAYERS, and add its lines to TARGETS.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"

STAGE=${MPB_STAGE:-$ROOT/target/stage}
OUT=${MPB_BENCH_OUT:-$ROOT/target/bench}
JOB_TIMEOUT=${MPB_BENCH_TIMEOUT:-300}
CSV=$OUT/results.csv
SVG=$OUT/results.svg
CSV_HEADER='layer,op,bytes,ours_us,baseline,baseline_us,ratio'

# Layers in the order they run.
LAYERS=(core)

# Targets: layer op baseline bytes max_ratio (ratio = ours_us / baseline_us).
# A target is checked when its layer ran; a missing row counts as a failure.
TARGETS='
core pingpong mpi 8       1.2
core pingpong mpi 4194304 1.1
'

export OMPI_ALLOW_RUN_AS_ROOT=1
export OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1

die() {
    echo "bench.sh: $*" >&2
    exit 1
}

# cc_stage OUTPUT SOURCE... : compile a C benchmark against the staged
# headers and library.
cc_stage() {
    local output=$1
    shift
    mpicc -O2 -Wall -Wextra -I "$STAGE/include" -o "$output" "$@" \
        -L "$STAGE/lib" -Wl,-rpath,"$STAGE/lib" -lmpbridge
}

# run_mpi NPROCS PROGRAM ARGS... : one mpiexec job with a time limit.
run_mpi() {
    local n=$1
    shift
    local rc=0
    timeout -k 10 "$JOB_TIMEOUT" mpiexec -n "$n" "$@" || rc=$?
    if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
        die "$(basename "$1") did not finish within ${JOB_TIMEOUT}s"
    elif [ "$rc" -ne 0 ]; then
        die "$(basename "$1") failed (exit status $rc)"
    fi
}

# ---- layers -----------------------------------------------------------------

bench_core() {
    echo "== core: ping-pong, mpb_send/mpb_recv against MPI_Send/MPI_Recv"
    cc_stage "$OUT/core_pingpong" bench/core_pingpong.c
    run_mpi 2 "$OUT/core_pingpong" --csv "$CSV"
}

# ---- reporting --------------------------------------------------------------

print_results() {
    echo "== results ($CSV)"
    awk -F, '
        NR == 1 { printf "%-8s %-10s %10s %12s %-9s %12s %8s\n",
                  $1, $2, $3, $4, $5, $6, $7; next }
        { printf "%-8s %-10s %10s %12s %-9s %12s %8s\n",
                 $1, $2, $3, $4, $5, $6, $7 }' "$CSV"
}

# check_targets LAYER... : PASS/FAIL for every target of the layers given.
# Returns non-zero if any target fails.
check_targets() {
    local ran=" $* " failed=0 checked=0
    local layer op baseline bytes max ratio verdict
    echo "== targets"
    while read -r layer op baseline bytes max; do
        [ -n "$layer" ] || continue
        case "$ran" in *" $layer "*) ;; *) continue ;; esac
        checked=$((checked + 1))
        ratio=$(awk -F, -v l="$layer" -v o="$op" -v b="$baseline" -v n="$bytes" '
            NR > 1 && $1 == l && $2 == o && $5 == b && $3 == n { r = $7 }
            END { if (r != "") print r }' "$CSV")
        if [ -z "$ratio" ]; then
            verdict=FAIL
            ratio="(no result)"
        elif awk -v r="$ratio" -v m="$max" 'BEGIN { exit !(r + 0 <= m + 0) }'; then
            verdict=PASS
        else
            verdict=FAIL
        fi
        [ "$verdict" = PASS ] || failed=$((failed + 1))
        printf '%s  %s %s vs %s at %s B: ratio %s (limit %s)\n' \
            "$verdict" "$layer" "$op" "$baseline" "$bytes" "$ratio" "$max"
    done <<<"$TARGETS"
    if [ "$failed" -ne 0 ]; then
        echo "bench: $failed of $checked targets failed"
        return 1
    fi
    echo "bench: all $checked targets met"
}

# ---- main -------------------------------------------------------------------

main() {
    local layers=("$@")
    [ "${#layers[@]}" -gt 0 ] || layers=("${LAYERS[@]}")
    local layer
    for layer in "${layers[@]}"; do
        declare -F "bench_$layer" >/dev/null ||
            die "unknown layer '$layer' (known: ${LAYERS[*]})"
    done

    [ -f "$STAGE/lib/libmpbridge.so" ] ||
        die "$STAGE/lib/libmpbridge.so not found; run 'make stage' first (or 'make bench')"
    [ -f "$STAGE/include/mpbridge.h" ] ||
        die "$STAGE/include/mpbridge.h not found; run 'make stage' first (or 'make bench')"
    STAGE=$(cd "$STAGE" && pwd)
    command -v mpicc >/dev/null || die "mpicc not found (install an MPI, e.g. openmpi-bin and libopenmpi-dev)"
    command -v mpiexec >/dev/null || die "mpiexec not found (install an MPI, e.g. openmpi-bin)"
    command -v python3 >/dev/null || die "python3 not found (needed for the plot)"

    mkdir -p "$OUT"
    echo "$CSV_HEADER" >"$CSV"

    for layer in "${layers[@]}"; do
        "bench_$layer"
    done

    python3 bench/plot.py "$CSV" "$SVG"
    print_results
    check_targets "${layers[@]}"
}

main "$@"
