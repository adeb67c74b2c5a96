#!/usr/bin/env bash
# Runs the mpbridge benchmarks against the staged library, writes
# target/bench/results.csv and one figure per layer (target/bench/LAYER.svg,
# drawn by bench/plot.py with matplotlib), and checks the
# performance targets.  Run through `make bench` (which stages first), or
# directly after `make stage`.
#
# usage: scripts/bench.sh [LAYER...]      (default: every layer in LAYERS)
#
# Environment:
#   MPB_STAGE        staged install to test      (default: target/stage)
#   MPB_BENCH_OUT    output directory            (default: target/bench)
#   MPB_BENCH_TIMEOUT  seconds per mpiexec job   (default: 300)
#   MPB_BENCH_GA_REPS  repetitions of each GA job (default: 3)
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

CSV_HEADER='layer,op,bytes,ours_us,baseline,baseline_us,ratio'

# Layers in the order they run.
LAYERS=(core pvm tcgmsg express ga ensemble hpf mpc)

# Targets: layer op baseline bytes max_ratio (ratio = ours_us / baseline_us).
# A target is checked when its layer ran (a missing row then counts as a
# failure) or when some layer wrote its row.
TARGETS='
core pingpong mpi 8       0.8
core pingpong mpi 4194304 1.05
core ring4 mpi 8 0.7
core ring8 mpi 8 0.7
core idle-cpu none 8 0.05
core pingpong-traced core-untraced 8 1.5
core pingpong-log-filtered core-log-unset 8 1.02
pvm send-recv-raw mpi 8 1.2
pvm send-recv-raw mpi 4194304 1.25
pvm psend-precv mpi 8 0.9
pvm psend-precv mpi 4194304 1.1
pvm send-recv-raw pvm-3.4.6 8 0.2
pvm send-recv-raw pvm-3.4.6 1048576 0.2
ensemble launch mpiexec 8 1.5
ensemble launch mpiexec 64 1.5
tcgmsg snd-rcv mpi 8       0.9
tcgmsg snd-rcv mpi 4194304 1.1
ga get4 ga-5.8 8 0.5
ga put4 ga-5.8 8 0.5
ga acc4 ga-5.8 8 0.5
ga read_inc ga-5.8 8 1.0
ga read_inc4 ga-5.8 8 0.7
tcgmsg nxtval ga-5.8 8 1.0
ga get-remote mpi 8 2.5
ga put-remote mpi 8 2.5
ga acc-remote mpi 8 2.5
ga get-remote mpi 1048576 1.3
ga put-remote mpi 1048576 1.3
ga acc-remote mpi 1048576 1.3
core pingpong-tcp mpi 8 1.1
core pingpong-tcp mpi 4194304 1.1
ga get-remote-host mpi 8 1.5
ga get-remote-host mpi 1048576 1.1
ga get-remote-host ga-5.8 8 1.0
ga get-remote-host ga-5.8 1048576 1.0
hpf halo-2x2 mpi 33554432 1.1
hpf halo-1x2 mpi 33554432 1.1
hpf remap pdgemr2d 33554432 1.0
hpf matmul-2x2 pdgemm 33554432 1.1
hpf matmul-1x2 pdgemm 33554432 1.1
hpf sum mpi 33554432 1.1
hpf cshift mpi 33554432 1.1
express exwrite-exread core 8 1.1
express exwrite-exread core 4194304 1.1
express excombine mpi 64 1.3
express excombine-user mpi-op 64 1.3
express exconcat mpi 1024 1.2
express exbroadcast mpi 65536 1.1
mpc nbody-order-spread mpc-fastest-order 2130 1.1
mpc nbody mpi-best-order 2130 1.1
mpc nbody mpi-worst-order 2130 0.5
'
# Core ping-pong from 64 B to 4 KiB: at most 1.0 at every size.
for ((bytes = 64; bytes <= 4096; bytes *= 2)); do
    TARGETS+="core pingpong mpi $bytes 1.0"$'\n'
done
# GA stencil calls on 4 compute ranks (bench/ga_bench_stencil.c): ghost
# updates of a 2-D array with width 1 at most 0.8, strided gets and sums
# over a processor group of 2 of the 4 ranks at most 1.0.
TARGETS+="ga update-ghosts ga-5.8 4128 0.8"$'\n'
TARGETS+="ga update-ghosts ga-5.8 16416 0.8"$'\n'
for ((bytes = 8; bytes <= 131072; bytes *= 4)); do
    TARGETS+="ga strided-get ga-5.8 $bytes 1.0"$'\n'
    TARGETS+="ga pgroup-dgop ga-5.8 $bytes 1.0"$'\n'
done
# GA get/put/acc with 2 compute ranks: at most 1.0 at every size measured.
for op in get put acc; do
    for ((bytes = 8; bytes <= 1048576; bytes *= 2)); do
        TARGETS+="ga $op ga-5.8 $bytes 1.0"$'\n'
    done
done

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

# Ratios are only meaningful on a quiet machine: say so when it is busy.
warn_if_busy() {
    local load cores
    [ -r /proc/loadavg ] || return 0
    read -r load _ </proc/loadavg
    cores=$(nproc 2>/dev/null || echo 1)
    if awk -v l="$load" -v c="$cores" 'BEGIN { exit !(l + 0 > c + 0) }'; then
        echo "bench.sh: warning: load average $load on $cores cores;" \
            "other work competes with the benchmark and timings will be noisy" >&2
    fi
}

# ---- layers -----------------------------------------------------------------

# RESULT lines of pvm_pingpong -> CSV rows. With an MPI column:
# (mode, bytes, ours, mpi); without: (mode, bytes, time).
pvm_rows_vs_mpi() {
    awk -v OFS=, '$1 == "RESULT" && NF == 5 {
        op = ($2 == "raw") ? "send-recv-raw" : ($2 == "inplace") ? "send-recv-inplace" : "psend-precv"
        printf "pvm,%s,%s,%.3f,mpi,%.3f,%.3f\n", op, $3, $4, $5, $4 / $5
    }' "$1"
}

# Runs the benchmark built against Debian's PVM 3.4.6 under its own pvmd,
# started here and stopped afterwards (direct routing is set by the program).
run_real_pvm() {
    local out=$1
    shift
    local tmpd
    tmpd=$(mktemp -d)
    (
        export PVM_ROOT=/usr/lib/pvm3 PVM_ALLOW_ROOT=1 PVM_TMP="$tmpd"
        setsid /usr/bin/pvmd </dev/null >"$tmpd/pvmd.log" 2>&1 &
        pid=$!
        for _ in $(seq 100); do
            compgen -G "$tmpd/pvmd.[0-9]*" >/dev/null && break
            sleep 0.1
        done
        rc=0
        timeout -k 5 "$JOB_TIMEOUT" "$@" </dev/null >"$out" || rc=$?
        kill "$pid" 2>/dev/null || true
        sleep 0.3
        kill -9 "$pid" 2>/dev/null || true
        exit "$rc"
    )
    local rc=$?
    rm -rf "$tmpd"
    return $rc
}

bench_pvm() {
    echo "== pvm: initsend(raw, in place)+pkbyte+send / recv+upkbyte and psend/precv against MPI_Send/MPI_Recv (same job)"
    mpicc -O2 -Wall -Wextra -DWITH_MPI -I "$STAGE/include" -o "$OUT/pvm_pingpong_ours" bench/pvm_pingpong.c \
        -L "$STAGE/lib" -Wl,-rpath,"$STAGE/lib" -lpvm3
    run_mpi 2 "$OUT/pvm_pingpong_ours" >"$OUT/pvm_ours.txt"
    cat "$OUT/pvm_ours.txt"
    pvm_rows_vs_mpi "$OUT/pvm_ours.txt" >>"$CSV"
    echo "== pvm: the same with MPBRIDGE_PVM_LAZY_RECV=1 (large bodies received straight into the unpack target)"
    run_mpi 2 env MPBRIDGE_PVM_LAZY_RECV=1 "$OUT/pvm_pingpong_ours" >"$OUT/pvm_ours_lazy.txt"
    cat "$OUT/pvm_ours_lazy.txt"
    awk -v OFS=, '$1 == "RESULT" && NF == 5 && $2 == "raw" {
        printf "pvm,send-recv-raw-lazy,%s,%.3f,mpi,%.3f,%.3f\n", $3, $4, $5, $4 / $5
    }' "$OUT/pvm_ours_lazy.txt" >>"$CSV"
    if [ ! -x /usr/bin/pvmd ] || [ ! -e /usr/lib/x86_64-linux-gnu/libpvm3.so.3 ]; then
        die "Debian's PVM is missing (apt-get install pvm pvm-dev): no baseline pvm-3.4.6"
    fi
    echo "== pvm: the same program on Debian's PVM 3.4.6 (pvmd, direct routing)"
    cc -O2 -Wall -Wextra -I /usr/include -o "$OUT/pvm_pingpong_real" bench/pvm_pingpong.c \
        /usr/lib/x86_64-linux-gnu/libpvm3.so.3
    run_real_pvm "$OUT/pvm_real.txt" "$OUT/pvm_pingpong_real" --max-bytes 1048576 ||
        die "the PVM 3.4.6 run failed (see $OUT/pvm_real.txt)"
    cat "$OUT/pvm_real.txt"
    awk -v OFS=, 'NR == FNR { if ($1 == "RESULT" && $2 == "raw") ours[$3] = $4; next }
        $1 == "RESULT" && $2 == "raw" && ($3 in ours) {
            printf "pvm,send-recv-raw,%s,%.3f,pvm-3.4.6,%.3f,%.3f\n", $3, ours[$3], $4, ours[$3] / $4
        }' "$OUT/pvm_ours.txt" "$OUT/pvm_real.txt" >>"$CSV"
}

bench_core() {
    echo "== core: ping-pong, mpb_send/mpb_recv against MPI_Send/MPI_Recv"
    cc_stage "$OUT/core_pingpong" bench/core_pingpong.c
    run_mpi 2 "$OUT/core_pingpong" --csv "$CSV"
    bench_core_traced
    bench_core_log_filtered
    echo "== core: 8-byte token around a ring of 4 and 8 processes on this machine's cores"
    cc_stage "$OUT/core_ring" bench/core_ring.c
    run_mpi 4 "$OUT/core_ring" --csv "$CSV"
    run_mpi 8 "$OUT/core_ring" --csv "$CSV" --laps 10000
    echo "== core: CPU share of a process blocked 2 s in mpb_recv"
    cc_stage "$OUT/core_idle" bench/core_idle.c
    run_mpi 2 "$OUT/core_idle" --csv "$CSV"
    bench_core_tcp
}

# The 8-byte core ping-pong again with MPBRIDGE_TRACE on (every send and
# receive written to a trace file), against MPI in the same job: row
# core,pingpong-traced vs mpi; and the traced time over the untraced one
# of the same run: row core,pingpong-traced vs core-untraced (what
# tracing costs).
# Run alone (scripts/bench.sh core_traced), it first builds the ping-pong
# and measures the untraced 8-byte row it compares against.
bench_core_traced() {
    if ! grep -q '^core,pingpong,8,' "$CSV"; then
        echo "== core: 8-byte ping-pong, mpb_send/mpb_recv against MPI_Send/MPI_Recv (untraced, to compare)"
        cc_stage "$OUT/core_pingpong" bench/core_pingpong.c
        run_mpi 2 "$OUT/core_pingpong" --csv "$CSV" --min-bytes 8 --max-bytes 8
    fi
    echo "== core: 8-byte ping-pong with MPBRIDGE_TRACE on, against MPI_Send/MPI_Recv"
    local dir="$OUT/core-trace"
    rm -rf "$dir"
    : >"$OUT/core_traced.csv"
    run_mpi 2 -x MPBRIDGE_TRACE="$dir" "$OUT/core_pingpong" --csv "$OUT/core_traced.csv" \
        --min-bytes 8 --max-bytes 8
    sed 's/^core,pingpong,/core,pingpong-traced,/' "$OUT/core_traced.csv" >>"$CSV"
    awk -F, '
        $1 == "core" && $2 == "pingpong" && $3 == 8 { plain_us = $4 }
        $1 == "core" && $2 == "pingpong-traced" && $3 == 8 && $5 == "mpi" { traced_us = $4 }
        END {
            if (plain_us > 0 && traced_us > 0)
                printf "core,pingpong-traced,8,%.3f,core-untraced,%.3f,%.3f\n",
                    traced_us, plain_us, traced_us / plain_us
        }' "$CSV" >>"$CSV"
    ls "$dir"/*.trace >/dev/null 2>&1 || die "the traced ping-pong wrote no trace files in $dir"
}

# The 8-byte core ping-pong again with MPBRIDGE_LOG set to a filter that
# matches nothing on the core message path (pvm=debug: the logger is
# installed and asked at every decision point, but no core event passes),
# against MPI in the same job: row core,pingpong-log-filtered vs mpi. And
# what a logger that is on but filtered costs the message path: that
# run's mpbridge/MPI ratio over the mpbridge/MPI ratio of the plain run
# (MPBRIDGE_LOG unset), as row core,pingpong-log-filtered vs
# core-log-unset (ours_us and baseline_us are the two runs' mpbridge
# times; the ratio divides out the MPI times, so load that slows both
# kinds in one run does not count).
bench_core_log_filtered() {
    echo "== core: 8-byte ping-pong with MPBRIDGE_LOG=pvm=debug (nothing on the core path passes), against MPI_Send/MPI_Recv"
    : >"$OUT/core_log_filtered.csv"
    local err="$OUT/core_log_filtered.err"
    if ! (run_mpi 2 -x MPBRIDGE_LOG=pvm=debug "$OUT/core_pingpong" \
        --csv "$OUT/core_log_filtered.csv" --min-bytes 8 --max-bytes 8) 2>"$err"; then
        cat "$err" >&2
        die "the core ping-pong with MPBRIDGE_LOG=pvm=debug failed"
    fi
    cat "$err" >&2
    # Log lines start with the process ([rank 0 t40001]); none may pass.
    if grep -q '^\[rank ' "$err"; then
        die "MPBRIDGE_LOG=pvm=debug let log lines through on the core ping-pong (see above)"
    fi
    sed 's/^core,pingpong,/core,pingpong-log-filtered,/' "$OUT/core_log_filtered.csv" >>"$CSV"
    awk -F, '
        $1 == "core" && $2 == "pingpong" && $3 == 8 { plain_us = $4; plain_ratio = $7 }
        $1 == "core" && $2 == "pingpong-log-filtered" && $3 == 8 && $5 == "mpi" {
            filtered_us = $4; filtered_ratio = $7
        }
        END {
            if (plain_ratio > 0 && filtered_ratio > 0)
                printf "core,pingpong-log-filtered,8,%.3f,core-log-unset,%.3f,%.3f\n",
                    filtered_us, plain_us, filtered_ratio / plain_ratio
        }' "$CSV" >>"$CSV"
}

# two_hosts_up ROWS: brings up a two-host cluster of scripts/cluster.sh
# (taken down again when the script exits, unless the caller does it
# first). Returns 1, saying that the ROWS rows are missing and why, when
# this machine cannot make one (not root, no namespaces); any other failure
# ends the benchmark.
two_hosts_up() {
    local rc=0 msg
    msg=$(bash scripts/cluster.sh up -n 2 2>&1 >/dev/null) || rc=$?
    if [ "$rc" -eq 3 ]; then
        echo "bench.sh: no $1 rows: $msg" >&2
        return 1
    elif [ "$rc" -ne 0 ]; then
        bash scripts/cluster.sh down || true
        die "cluster.sh up failed: $msg"
    fi
    trap 'bash scripts/cluster.sh down || true' EXIT
}

# The core ping-pong between two hosts of scripts/cluster.sh (MPI's TCP
# transport over the cluster's bridge), against raw MPI in the same job:
# rows core,pingpong-tcp. Without a cluster (not root, no namespaces) the
# rows are missing, with the reason printed.
bench_core_tcp() {
    echo "== core: ping-pong across two hosts of a one-machine cluster (TCP), against MPI_Send/MPI_Recv"
    two_hosts_up pingpong-tcp || return 0
    local args bytes
    mapfile -t args <"${MPBRIDGE_CLUSTER_DIR:-/run/mpbridge-cluster}/mpiexec-args"
    : >"$OUT/core_tcp.csv"
    for bytes in 8 4194304; do
        run_mpi 2 "${args[@]}" --map-by node "$OUT/core_pingpong" --csv "$OUT/core_tcp.csv" \
            --min-bytes "$bytes" --max-bytes "$bytes"
    done
    sed 's/^core,pingpong,/core,pingpong-tcp,/' "$OUT/core_tcp.csv" >>"$CSV"
    bash scripts/cluster.sh down
    trap - EXIT
}

# wall_us COMMAND... : wall time of one run in microseconds (fails the
# benchmark if the command fails or exceeds the job time limit).
wall_us() {
    local t0 t1 rc=0
    t0=$(date +%s%N)
    timeout -k 10 "$JOB_TIMEOUT" "$@" >/dev/null 2>"$OUT/wall.err" || rc=$?
    t1=$(date +%s%N)
    if [ "$rc" -ne 0 ]; then
        cat "$OUT/wall.err" >&2
        die "$(basename "$1") failed (exit status $rc)"
    fi
    echo $(((t1 - t0) / 1000))
}

# best_us RUNS COMMAND... : the fastest of RUNS runs (launch times are
# noisy; the minimum is the least disturbed one).
best_us() {
    local runs=$1 best="" t i
    shift
    for ((i = 0; i < runs; i++)); do
        t=$(wall_us "$@")
        if [ -z "$best" ] || [ "$t" -lt "$best" ]; then best=$t; fi
    done
    echo "$best"
}

# Ensemble: the time to start and finish a composition of N trivial
# components through `mpbridge ensemble run` (MPI loader: parse, check,
# one MPMD mpiexec with each process's envelope, SetEnvArgs's collective
# splits) against a plain `mpiexec -n N` of the same program.
bench_ensemble() {
    echo "== ensemble: mpbridge ensemble run of N trivial components against mpiexec -n N"
    mpicc -O2 -Wall -Wextra -DWITH_ENSEMBLE -I "$STAGE/include" -o "$OUT/ensemble_trivial" \
        bench/ensemble_trivial.c -L "$STAGE/lib" -Wl,-rpath,"$STAGE/lib" -lmpbridge
    mpicc -O2 -Wall -Wextra -o "$OUT/ensemble_trivial_plain" bench/ensemble_trivial.c
    local n ours base
    for n in 8 64; do
        ours=$(best_us 3 "$STAGE/bin/mpbridge" ensemble run bench/ensemble_trivial.ens -D "N=$n" --path "$OUT")
        base=$(best_us 3 mpiexec -n "$n" "$OUT/ensemble_trivial_plain")
        echo "N=$n: mpbridge ensemble run ${ours} us, mpiexec -n $n ${base} us"
        awk -v OFS=, -v n="$n" -v o="$ours" -v b="$base" \
            'BEGIN { printf "ensemble,launch,%s,%.3f,mpiexec,%.3f,%.3f\n", n, o, b, o / b }' >>"$CSV"
    done
}

# run_job LABEL MPIEXEC-ARGS... : one mpiexec job (MPMD lines allowed) with
# a time limit; dies with LABEL when it fails.
run_job() {
    local label=$1
    shift
    local rc=0
    timeout -k 10 "$JOB_TIMEOUT" mpiexec "$@" || rc=$?
    if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
        die "$label did not finish within ${JOB_TIMEOUT}s"
    elif [ "$rc" -ne 0 ]; then
        die "$label failed (exit status $rc)"
    fi
}

# ga_rows_vs_baseline SUFFIX "OURS FILES" "BASELINE FILES": the best time of
# every (op, bytes) over the repetitions on each side -> CSV rows. SUFFIX
# ("" or "4") is appended to the op names; nxtval rows belong to tcgmsg.
ga_rows_vs_baseline() {
    local suffix=$1 ours=$2 base=$3
    # shellcheck disable=SC2086
    awk -v sfx="$suffix" -v nours="$(echo $ours | wc -w)" '
        FNR == 1 { file++ }
        $1 != "RESULT" || NF != 4 { next }
        { key = $2 " " $3 }
        file <= nours { if (!(key in o) || $4 < o[key]) o[key] = $4; next }
        { if (!(key in b) || $4 < b[key]) b[key] = $4 }
        END {
            for (key in o) {
                if (!(key in b)) continue
                split(key, k, " ")
                layer = (k[1] == "nxtval") ? "tcgmsg" : "ga"
                printf "%s,%s%s,%s,%.3f,ga-5.8,%.3f,%.3f\n",
                    layer, k[1], sfx, k[2], o[key], b[key], o[key] / b[key]
            }
        }' $ours $base | sort -t, -k1,1 -k2,2 -k3,3n
}

# ga_rows_remote FILES: best remote time and best MPI request/reply per
# (op, bytes) over the repetitions -> CSV rows.
ga_rows_remote() {
    # shellcheck disable=SC2068
    awk '$1 == "RESULT" && NF == 5 {
            key = $2 " " $3
            if (!(key in o) || $4 < o[key]) o[key] = $4
            if (!(key in m) || $5 < m[key]) m[key] = $5
        }
        END {
            for (key in o) {
                split(key, k, " ")
                printf "ga,%s,%s,%.3f,mpi,%.3f,%.3f\n", k[1], k[2], o[key], m[key], o[key] / m[key]
            }
        }' $@ | sort -t, -k2,2 -k3,3n
}

bench_ga() {
    local deb_lib=/usr/lib/x86_64-linux-gnu
    local server=$STAGE/bin/ga-server
    local reps=${MPB_BENCH_GA_REPS:-3}
    local np rep ours base remote
    [ -x "$server" ] || die "$server not found: the ga-server binary is not staged (make stage)"
    if [ ! -f "$deb_lib/libga-openmpi.a" ] || [ ! -f "$deb_lib/libarmci-openmpi.a" ]; then
        die "Debian's GA for Open MPI is missing (apt-get install libglobalarrays-dev" \
            "libarmci-mpi-dev libscalapack-openmpi-dev): no baseline ga-5.8"
    fi
    echo "== ga: the same ga_bench.c against our GA (with one ga-server) and Debian's GA 5.8 (ARMCI-MPI)"
    cc_stage "$OUT/ga_bench_ours" bench/ga_bench.c
    mpicc -O2 -Wall -Wextra -o "$OUT/ga_bench_ga58" bench/ga_bench.c -L "$deb_lib" \
        -lga-openmpi -lscalapack-openmpi -llapack -lblas -larmci-openmpi -lgfortran -lm
    # Different libraries need different jobs: run them back to back,
    # alternating, and keep the best of the repetitions on each side.
    for np in 2 4; do
        ours="" base=""
        for rep in $(seq "$reps"); do
            echo "-- $np compute ranks, repetition $rep of $reps: ours, then GA 5.8"
            run_job "ga_bench (ours, $np ranks)" -n "$np" "$OUT/ga_bench_ours" : -n 1 "$server" \
                >"$OUT/ga_ours_n${np}_r$rep.txt"
            run_job "ga_bench (GA 5.8, $np ranks)" -n "$np" "$OUT/ga_bench_ga58" \
                >"$OUT/ga_ga58_n${np}_r$rep.txt"
            ours="$ours $OUT/ga_ours_n${np}_r$rep.txt"
            base="$base $OUT/ga_ga58_n${np}_r$rep.txt"
        done
        local sfx=""
        [ "$np" -eq 2 ] || sfx=$np
        ga_rows_vs_baseline "$sfx" "$ours" "$base" | tee -a "$CSV"
    done
    echo "== ga: ghost updates, strided gets and processor-group sums (ga_bench_stencil.c), ours and GA 5.8, 4 compute ranks"
    cc_stage "$OUT/ga_stencil_ours" bench/ga_bench_stencil.c
    mpicc -O2 -Wall -Wextra -o "$OUT/ga_stencil_ga58" bench/ga_bench_stencil.c -L "$deb_lib" \
        -lga-openmpi -lscalapack-openmpi -llapack -lblas -larmci-openmpi -lgfortran -lm
    ours="" base=""
    for rep in $(seq "$reps"); do
        echo "-- repetition $rep of $reps: ours, then GA 5.8"
        run_job "ga_bench_stencil (ours)" -n 4 "$OUT/ga_stencil_ours" : -n 1 "$server" \
            >"$OUT/ga_stencil_ours_r$rep.txt"
        run_job "ga_bench_stencil (GA 5.8)" -n 4 "$OUT/ga_stencil_ga58" \
            >"$OUT/ga_stencil_ga58_r$rep.txt"
        ours="$ours $OUT/ga_stencil_ours_r$rep.txt"
        base="$base $OUT/ga_stencil_ga58_r$rep.txt"
    done
    ga_rows_vs_baseline "" "$ours" "$base" | tee -a "$CSV"
    echo "== ga: every operation through the ga-server (MPBRIDGE_GA_REMOTE=1) against an MPI request/reply"
    remote=""
    for rep in $(seq "$reps"); do
        MPBRIDGE_GA_REMOTE=1 run_job "ga_bench (remote mode)" \
            -n 2 "$OUT/ga_bench_ours" --no-nxtval : -n 1 "$server" >"$OUT/ga_remote_r$rep.txt"
        remote="$remote $OUT/ga_remote_r$rep.txt"
    done
    # shellcheck disable=SC2086
    ga_rows_remote $remote | tee -a "$CSV"
    bench_ga_hosts
}

# GA get between two hosts of scripts/cluster.sh: compute rank 0 on host1
# reads compute rank 1's block on host2 through host2's ga-server (remote
# mode), against an MPI request/reply between the same two ranks in the
# same job, and against Debian's GA 5.8 with the same two ranks on the same
# hosts (ARMCI-MPI needs one-sided MPI, which Open MPI 4.1 has across
# hosts only over UCX): rows ga,get-remote-host. Without a cluster (not
# root, no namespaces) the rows are missing, with the reason printed.
bench_ga_hosts() {
    echo "== ga: get across two hosts of a one-machine cluster through the other host's ga-server, against MPI and GA 5.8"
    local server=$STAGE/bin/ga-server reps=${MPB_BENCH_GA_REPS:-3}
    local rep bytes ours="" base=""
    two_hosts_up get-remote-host || return 0
    local args
    mapfile -t args <"${MPBRIDGE_CLUSTER_DIR:-/run/mpbridge-cluster}/mpiexec-args"
    local ucx=(--mca pml ucx --mca pml_ucx_tls any --mca pml_ucx_devices any --mca osc ucx)
    for rep in $(seq "$reps"); do
        for bytes in 8 1048576; do
            echo "-- $bytes bytes, repetition $rep of $reps: ours, then GA 5.8"
            MPBRIDGE_GA_REMOTE=1 run_job "ga_bench across hosts (ours)" "${args[@]}" --map-by node \
                -x MPBRIDGE_GA_REMOTE -n 2 "$OUT/ga_bench_ours" --no-nxtval \
                --min-bytes "$bytes" --max-bytes "$bytes" \
                : -x MPBRIDGE_GA_REMOTE -n 2 "$server" >"$OUT/ga_hosts_ours_${bytes}_r$rep.txt"
            run_job "ga_bench across hosts (GA 5.8)" "${args[@]}" "${ucx[@]}" --map-by node \
                -n 2 "$OUT/ga_bench_ga58" --no-nxtval --min-bytes "$bytes" --max-bytes "$bytes" \
                >"$OUT/ga_hosts_ga58_${bytes}_r$rep.txt"
            ours="$ours $OUT/ga_hosts_ours_${bytes}_r$rep.txt"
            base="$base $OUT/ga_hosts_ga58_${bytes}_r$rep.txt"
        done
    done
    bash scripts/cluster.sh down
    trap - EXIT
    # Best over the repetitions: ours and MPI from the remote-mode lines,
    # GA 5.8 from its plain get lines.
    # shellcheck disable=SC2086
    awk -v nours="$(echo $ours | wc -w)" '
        FNR == 1 { file++ }
        $1 != "RESULT" { next }
        file <= nours && $2 == "get-remote" && NF == 5 {
            if (!($3 in o) || $4 < o[$3]) o[$3] = $4
            if (!($3 in m) || $5 < m[$3]) m[$3] = $5
            next
        }
        file > nours && $2 == "get" && NF == 4 { if (!($3 in b) || $4 < b[$3]) b[$3] = $4 }
        END {
            for (k in o) {
                printf "ga,get-remote-host,%s,%.3f,mpi,%.3f,%.3f\n", k, o[k], m[k], o[k] / m[k]
                if (k in b)
                    printf "ga,get-remote-host,%s,%.3f,ga-5.8,%.3f,%.3f\n", k, o[k], b[k], o[k] / b[k]
            }
        }' $ours $base | sort -t, -k3,3n -k5,5 | tee -a "$CSV"
}

bench_tcgmsg() {
    echo "== tcgmsg: synchronous tcg_snd/tcg_rcv against MPI_Send/MPI_Recv (same job)"
    mpicc -O2 -Wall -Wextra -I "$STAGE/include" -o "$OUT/tcgmsg_pingpong" bench/tcgmsg_pingpong.c \
        -L "$STAGE/lib" -Wl,-rpath,"$STAGE/lib" -ltcgmsg
    run_mpi 2 "$OUT/tcgmsg_pingpong" --csv "$CSV"
}

bench_hpf() {
    echo "== hpf: halo, remap, matmul, sum, cshift against MPI and ScaLAPACK (same job; 2x2 and 1x2 grids)"
    mpicc -O2 -Wall -Wextra -I "$STAGE/include" -o "$OUT/hpf_bench" bench/hpf_bench.c \
        -L "$STAGE/lib" -Wl,-rpath,"$STAGE/lib" -lmpbridge -lscalapack-openmpi -lm
    # One BLAS thread per process, for ours and ScaLAPACK alike.
    OPENBLAS_NUM_THREADS=1 run_mpi 4 "$OUT/hpf_bench" --csv "$CSV"
    OPENBLAS_NUM_THREADS=1 run_mpi 2 "$OUT/hpf_bench" --small --csv "$CSV"
}

bench_express() {
    echo "== express: exwrite/exread, excombine, exconcat, exbroadcast against MPI (same job, 4 ranks)"
    mpicc -O2 -Wall -Wextra -I "$STAGE/include" -o "$OUT/express_bench" bench/express_bench.c \
        -L "$STAGE/lib" -Wl,-rpath,"$STAGE/lib" -lexpress
    run_mpi 4 "$OUT/express_bench" --csv "$CSV"
}

# The galaxy N-body of the mpC paper on a three-host cluster of this
# machine with relative speeds 1150, 331 and 1662 (CPU quotas): the plain
# MPI program with its fixed 3/1/5 mapping against the mpc.h program mapped
# by the dispatcher from the machine file `mpbridge recon` measured, for
# the same group orders. The bytes column holds the number of bodies
# (2130). Rows: one per order (ours = mpc, baseline = MPI),
# the spread of ours over the orders, and ours (mean over orders) against
# the MPI program's best and worst order.
MPC_ORDERS=(
    10,10,10,100,100,100,600,600,600
    600,100,100,10,600,600,100,10,10
    10,10,10,600,100,100,100,600,600
    600,600,600,100,100,100,10,10,10
    600,100,10,600,100,10,600,100,10
    100,600,10,10,600,100,10,600,100
)
MPC_STEPS=${MPB_BENCH_MPC_STEPS:-"10 150"}

bench_mpc() {
    echo "== mpc: galaxy N-body, plain MPI with the fixed 3/1/5 mapping against mpc.h's dispatcher, on 3 hosts of speeds 1150,331,1662"
    [ "$(id -u)" -eq 0 ] || die "mpc: the cluster of hosts needs root"
    mpicc -O2 -Wall -Wextra -o "$OUT/mpc_nbody_mpi" bench/mpc_nbody_mpi.c -lm
    cc_stage "$OUT/mpc_nbody" bench/mpc_nbody.c -lm
    local cdir=${MPBRIDGE_CLUSTER_DIR:-/run/mpbridge-cluster} rc=0 cg
    bash scripts/cluster.sh up -n 3 --speeds 1150,331,1662 --slots 5 || rc=$?
    [ "$rc" -eq 0 ] || die "mpc: cannot make the cluster (scripts/cluster.sh up exit $rc)"
    # The hosts' quotas, not unrelated load, must set their speeds: the
    # quotas are halved (the fastest host gets half a CPU, the three
    # together less than one), and the cluster's cgroup gets the highest
    # CPU weight.
    local h q p
    for h in host1 host2 host3; do
        cg=$(cat "$cdir/$h.cgroup")
        if [ -f "$cg/cpu.cfs_quota_us" ]; then
            q=$(cat "$cg/cpu.cfs_quota_us")
            echo $((q / 2)) >"$cg/cpu.cfs_quota_us"
        else
            read -r q p <"$cg/cpu.max"
            echo "$((q / 2)) $p" >"$cg/cpu.max"
        fi
    done
    for cg in /sys/fs/cgroup/cpu/mpbridge-cluster/cpu.shares \
        /sys/fs/cgroup/cpu,cpuacct/mpbridge-cluster/cpu.shares; do
        [ -f "$cg" ] && echo 262144 >"$cg"
    done
    [ -f /sys/fs/cgroup/mpbridge-cluster/cpu.weight ] && echo 10000 >/sys/fs/cgroup/mpbridge-cluster/cpu.weight
    local -a args
    mapfile -t args <"$cdir/mpiexec-args"
    "$STAGE/bin/mpbridge" recon --cluster --seconds 2 -o "$OUT/mpc_cluster.vpm" ||
        { bash scripts/cluster.sh down; die "mpc: mpbridge recon failed"; }
    cat "$OUT/mpc_cluster.vpm"
    local order out="$OUT/mpc_nbody.txt"
    : >"$out"
    for order in "${MPC_ORDERS[@]}"; do
        # shellcheck disable=SC2086
        timeout -k 10 "$JOB_TIMEOUT" mpiexec "${args[@]}" --bind-to none \
            --host host1:3,host2:1,host3:5 -n 9 "$OUT/mpc_nbody_mpi" "$order" $MPC_STEPS >>"$out" || rc=$?
        # shellcheck disable=SC2086
        timeout -k 10 "$JOB_TIMEOUT" mpiexec "${args[@]}" --bind-to none -x MPBRIDGE_VPM="$OUT/mpc_cluster.vpm" \
            --host host1:4,host2:4,host3:4 -n 12 "$OUT/mpc_nbody" "$order" $MPC_STEPS >>"$out" || rc=$?
        [ "$rc" -eq 0 ] || break
        grep "NBODY .* $order " "$out"
    done
    bash scripts/cluster.sh down
    grep -E "^(NODE|MAPPED)" "$out" | head -10
    python3 bench/nbody_plot.py "$out" "$OUT/mpc_nbody.svg" || true
    [ "$rc" -eq 0 ] || die "mpc: an N-body run failed (exit $rc; see $out)"
    awk -v OFS=, '
        $1 == "NBODY" { t[$2, $3] = $4; if ($2 == "mpc") orders[++n] = $3 }
        END {
            lo = hi = sum = 0; best = worst = 0
            for (i = 1; i <= n; i++) {
                o = orders[i]; m = t["mpc", o]; p = t["mpi", o]
                printf "mpc,nbody-order-%d,2130,%.0f,mpi,%.0f,%.3f\n", i, m * 1e6, p * 1e6, m / p
                sum += m
                if (lo == 0 || m < lo) lo = m
                if (m > hi) hi = m
                if (best == 0 || p < best) best = p
                if (p > worst) worst = p
            }
            mean = sum / n
            printf "mpc,nbody-order-spread,2130,%.0f,mpc-fastest-order,%.0f,%.3f\n", hi * 1e6, lo * 1e6, hi / lo
            printf "mpc,nbody,2130,%.0f,mpi-best-order,%.0f,%.3f\n", mean * 1e6, best * 1e6, mean / best
            printf "mpc,nbody,2130,%.0f,mpi-worst-order,%.0f,%.3f\n", mean * 1e6, worst * 1e6, mean / worst
        }' "$out" >>"$CSV"
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
        ratio=$(awk -F, -v l="$layer" -v o="$op" -v b="$baseline" -v n="$bytes" '
            NR > 1 && $1 == l && $2 == o && $5 == b && $3 == n { r = $7 }
            END { if (r != "") print r }' "$CSV")
        # Checked when its layer ran, or when another layer's function
        # wrote its row (bench_ga writes the tcgmsg nxtval rows).
        case "$ran" in *" $layer "*) ;; *) [ -n "$ratio" ] || continue ;; esac
        checked=$((checked + 1))
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

# A python3 that has matplotlib: Debian's (python3-matplotlib), else the
# first python3 on PATH that imports it.
plot_python() {
    local py
    for py in /usr/bin/python3 "$(command -v python3 || true)"; do
        [ -n "$py" ] && [ -x "$py" ] && "$py" -c 'import matplotlib' 2>/dev/null &&
            { echo "$py"; return 0; }
    done
    return 1
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
    PLOT_PY=$(plot_python) || die "no python3 with matplotlib found (install python3-matplotlib)"

    mkdir -p "$OUT"
    echo "$CSV_HEADER" >"$CSV"
    warn_if_busy

    local step=0
    for layer in "${layers[@]}"; do
        step=$((step + 1))
        echo "== [$step/${#layers[@]}] layer $layer ($((${#layers[@]} - step)) left after it)"
        "bench_$layer"
    done

    printf '%s' "$TARGETS" >"$OUT/targets.txt"
    "$PLOT_PY" bench/plot.py "$CSV" "$OUT/targets.txt" "$OUT"
    print_results
    warn_if_busy
    check_targets "${layers[@]}"
}

main "$@"
