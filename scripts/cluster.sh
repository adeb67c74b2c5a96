#!/usr/bin/env bash
# A cluster of hosts on this one machine, for running jobs across "nodes"
# without other machines. Each host is a set of namespaces kept alive by one
# holder process: its own hostname (UTS), its own network stack with one
# address on a bridge (veth pair), its own /dev/shm and /etc/hosts (mount
# namespace), and, with --speeds, its own CPU quota (cgroup). Open MPI starts
# its daemons on a host through the generated rsh agent, which enters the
# host's namespaces instead of using ssh.
#
#   scripts/cluster.sh up [-n N] [--speeds a,b,...] [--slots K]
#   scripts/cluster.sh down
#   scripts/cluster.sh status
#   scripts/cluster.sh unplug HOST   (takes HOST's network link down: a host
#                                     failure the job must notice)
#
# Needs root, util-linux (unshare, nsenter), iproute2, mount and hostname.
# MPBRIDGE_CLUSTER_DIR (default /run/mpbridge-cluster) holds the state:
# hostfile, rsh-agent, mpiexec-args (the options mpiexec needs, one per line),
# hosts, network. MPBRIDGE_CLUSTER_NET (default 10.213.7) is the /24 prefix.
# Exit status: 0 done, 1 failed, 2 bad usage, 3 this machine cannot have a
# cluster (not root, namespaces not allowed, tools missing; one line says which).
set -euo pipefail

DIR=${MPBRIDGE_CLUSTER_DIR:-/run/mpbridge-cluster}
NET=${MPBRIDGE_CLUSTER_NET:-10.213.7}
BRIDGE=mpbbr0
VETH=mpbv            # root-side ends: mpbv1, mpbv2, ...
CGROUP_NAME=mpbridge-cluster
MARK=mpbridge-cluster-holder
TAG=MPBRIDGE_CLUSTER_HOST   # set in everything the rsh agent starts

say() { echo "cluster: $*" >&2; }
die() { say "$*"; exit 1; }
# This machine cannot have a cluster (not root, no namespaces, no tools).
unavailable() { say "$*"; exit 3; }

usage() {
    sed -n "2,22p" "$0" | sed "s|^# \{0,1\}||" >&2
    exit 2
}

# --- where the CPU controller lives -----------------------------------------
# Prints "v1 DIR" or "v2 DIR" for the cluster's cgroup parent, or nothing.
cgroup_parent() {
    if [[ -f /sys/fs/cgroup/cgroup.controllers ]]; then
        echo "v2 /sys/fs/cgroup/$CGROUP_NAME"
    elif [[ -f /sys/fs/cgroup/cpu/cpu.cfs_quota_us ]]; then
        echo "v1 /sys/fs/cgroup/cpu/$CGROUP_NAME"
    elif [[ -f /sys/fs/cgroup/cpu,cpuacct/cpu.cfs_quota_us ]]; then
        echo "v1 /sys/fs/cgroup/cpu,cpuacct/$CGROUP_NAME"
    fi
}

# --- finding what belongs to the cluster --------------------------------------
holder_pids() {
    # The holder's argv[0] is "$MARK-<host>" (the pattern does not match
    # itself, so grep never finds its own command line).
    local f
    for f in $(grep -lzxE -- "$MARK-host[0-9]+" /proc/[0-9]*/cmdline 2>/dev/null); do
        if head -zn1 "$f" 2>/dev/null | grep -qzxE -- "$MARK-host[0-9]+"; then
            f=${f#/proc/}; echo "${f%/cmdline}"
        fi
    done
}

# The pid of HOST's holder, if it runs.
holder_of() {
    local p
    for p in $(holder_pids); do
        if head -zn1 "/proc/$p/cmdline" 2>/dev/null | grep -qzx -- "$MARK-$1"; then
            echo "$p"; return
        fi
    done
}

# Processes the rsh agent started (orted and everything below it), and
# processes sharing a network namespace with a holder.
member_pids() {
    {
        grep -lz -- "^$TAG=" /proc/[0-9]*/environ 2>/dev/null |
            sed -e 's|^/proc/||' -e 's|/environ$||' || true
        local pid nets=""
        for pid in $(holder_pids); do
            nets+=" $(readlink "/proc/$pid/ns/net" 2>/dev/null || true)"
        done
        if [[ -n ${nets// /} ]]; then
            find /proc/[0-9]*/ns/net -maxdepth 0 -printf '%p %l\n' 2>/dev/null |
                awk -v nets="$nets" 'BEGIN { n = split(nets, a, " "); for (i = 1; i <= n; i++) want[a[i]] = 1 }
                    ($2 in want) { sub("^/proc/", "", $1); sub("/ns/net$", "", $1); print $1 }'
        fi
    } | grep -vx -e "$$" -e "$BASHPID" | sort -u || true
}

kill_all() {
    local pids
    pids=$( { member_pids; holder_pids; } | sort -u)
    [[ -z $pids ]] && return 0
    # shellcheck disable=SC2086
    kill -TERM $pids 2>/dev/null || true
    local i
    for i in $(seq 1 30); do
        pids=$( { member_pids; holder_pids; } | sort -u)
        [[ -z $pids ]] && return 0
        sleep 0.1
    done
    # shellcheck disable=SC2086
    kill -KILL $pids 2>/dev/null || true
    for i in $(seq 1 30); do
        pids=$( { member_pids; holder_pids; } | sort -u)
        [[ -z $pids ]] && return 0
        sleep 0.1
    done
    say "processes that would not end: $pids"
    return 1
}

cmd_down() {
    local ok=0
    kill_all || ok=1
    # Links: the root-side veth ends (their peers vanish with them) and the bridge.
    local l
    for l in $(ip -o link show 2>/dev/null | awk -F': ' '{print $2}' | sed 's/@.*//' | grep -E "^$VETH[0-9]+$" || true); do
        ip link del "$l" 2>/dev/null || true
    done
    if ip link show "$BRIDGE" >/dev/null 2>&1; then
        ip link del "$BRIDGE" || ok=1
    fi
    # CPU quotas.
    local cg=""
    read -r _ cg <<<"$(cgroup_parent)" || true
    if [[ -n ${cg:-} && -d $cg ]]; then
        local d
        for d in "$cg"/*/; do
            [[ -d $d ]] || continue
            if [[ -f $d/cgroup.procs ]]; then
                local p
                for p in $(cat "$d/cgroup.procs" 2>/dev/null); do kill -KILL "$p" 2>/dev/null || true; done
            fi
            for _ in 1 2 3 4 5 6 7 8 9 10; do rmdir "$d" 2>/dev/null && break; sleep 0.1; done
        done
        rmdir "$cg" 2>/dev/null || { say "cannot remove $cg"; ok=1; }
    fi
    rm -rf "$DIR"
    return $ok
}

# --- up -----------------------------------------------------------------------
check_machine() {
    [[ $(id -u) -eq 0 ]] || unavailable "needs root (namespaces, bridge, cgroups); run as root"
    local t
    for t in unshare nsenter ip mount hostname setsid; do
        command -v "$t" >/dev/null 2>&1 ||
            unavailable "'$t' not found: apt-get install util-linux iproute2 mount hostname"
    done
    unshare --uts --net --mount true 2>/dev/null ||
        unavailable "namespaces are not allowed on this machine (unshare --uts --net --mount failed)"
    if ! ip link add "$BRIDGE-probe" type bridge 2>/dev/null; then
        unavailable "cannot create a network bridge on this machine (ip link add type bridge failed)"
    fi
    ip link del "$BRIDGE-probe" 2>/dev/null || true
}

cmd_up() {
    local n=3 speeds="" slots=2
    while [[ $# -gt 0 ]]; do
        case $1 in
            -n) n=${2:?}; shift 2 ;;
            --speeds) speeds=${2:?}; shift 2 ;;
            --slots) slots=${2:?}; shift 2 ;;
            *) usage ;;
        esac
    done
    [[ $n =~ ^[0-9]+$ && $n -ge 1 && $n -le 200 ]] || die "-n wants a number of hosts from 1 to 200"
    [[ $slots =~ ^[0-9]+$ && $slots -ge 1 ]] || die "--slots wants a positive number"
    local -a speed=()
    if [[ -n $speeds ]]; then
        IFS=, read -r -a speed <<<"$speeds"
        [[ ${#speed[@]} -eq $n ]] || die "--speeds gives ${#speed[@]} speeds for $n hosts"
        local s
        for s in "${speed[@]}"; do
            [[ $s =~ ^[0-9]+$ && $s -ge 1 ]] || die "--speeds wants positive whole numbers, not '$s'"
        done
    fi
    [[ $NET =~ ^[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}$ ]] ||
        die "MPBRIDGE_CLUSTER_NET wants the first three numbers of an IPv4 address (like 10.213.7), not '$NET'"
    check_machine
    local cgver="" cg=""
    if [[ ${#speed[@]} -gt 0 ]]; then
        read -r cgver cg <<<"$(cgroup_parent)" || true
        [[ -n $cgver ]] || die "--speeds needs the cgroup CPU controller, which this machine does not have"
    fi

    # Whatever an earlier run left behind goes first.
    cmd_down 2>/dev/null || true
    mkdir -p "$DIR"
    # Any failure from here on (a failed command or a die) removes what was made.
    trap 'rc=$?; if [[ $rc -ne 0 ]]; then say "up failed; cleaning up"; cmd_down || true; fi; exit $rc' EXIT

    # Names every host resolves (bind-mounted over /etc/hosts in each).
    {
        echo "127.0.0.1 localhost"
        echo "$NET.1 $(hostname) mpbridge-gateway"
        local i
        for i in $(seq 1 "$n"); do echo "$NET.$((10 + i)) host$i"; done
    } >"$DIR/hosts"
    echo "$NET.0/24" >"$DIR/network"

    ip link add "$BRIDGE" type bridge
    ip addr add "$NET.1/24" dev "$BRIDGE"
    ip link set "$BRIDGE" up

    local max=0 s
    for s in "${speed[@]}"; do (( s > max )) && max=$s; done
    if [[ -n $cgver ]]; then
        mkdir -p "$cg"
        [[ $cgver == v2 ]] && echo +cpu >"$(dirname "$cg")/cgroup.subtree_control" 2>/dev/null || true
        [[ $cgver == v2 ]] && echo +cpu >"$cg/cgroup.subtree_control"
    fi

    : >"$DIR/hostfile"
    local i
    for i in $(seq 1 "$n"); do
        local h=host$i
        # The holder: new UTS, network and mount namespaces; set the name,
        # a private /dev/shm and /etc/hosts, then sleep until `down`.
        setsid -f unshare --uts --net --mount --propagation private -- bash -c "
            hostname $h &&
            mount -t tmpfs -o mode=1777,size=${MPBRIDGE_CLUSTER_SHM:-50%} tmpfs /dev/shm &&
            mount --bind '$DIR/hosts' /etc/hosts &&
            exec -a $MARK-$h sleep infinity" </dev/null >"$DIR/$h.log" 2>&1
        local pid="" t
        for t in $(seq 1 100); do
            pid=$(holder_of "$h")
            [[ -n $pid ]] && break
            sleep 0.05
        done
        [[ -n $pid ]] || die "host $h did not start: $(cat "$DIR/$h.log")"
        echo "$pid" >"$DIR/$h.pid"

        ip link add "$VETH$i" type veth peer name "${VETH}p$i" netns "$pid"
        ip link set "$VETH$i" master "$BRIDGE" up
        echo "$VETH$i" >"$DIR/$h.link"
        nsenter -t "$pid" -n sh -c "
            ip link set lo up &&
            ip link set ${VETH}p$i name eth0 &&
            ip addr add $NET.$((10 + i))/24 dev eth0 &&
            ip link set eth0 up &&
            ip route add default via $NET.1"

        if [[ -n $cgver ]]; then
            local period=100000 quota
            quota=$(( period * speed[i-1] / max ))
            (( quota < 1000 )) && quota=1000
            mkdir -p "$cg/$h"
            if [[ $cgver == v1 ]]; then
                echo "$period" >"$cg/$h/cpu.cfs_period_us"
                echo "$quota" >"$cg/$h/cpu.cfs_quota_us"
            else
                echo "$quota $period" >"$cg/$h/cpu.max"
            fi
            echo "$pid" >"$cg/$h/cgroup.procs"
            echo "$cg/$h" >"$DIR/$h.cgroup"
            echo "${speed[i-1]} $quota/$period" >"$DIR/$h.speed"
        fi
        echo "$h slots=$slots" >>"$DIR/hostfile"
    done

    # The rsh agent: `rsh-agent [options] HOST COMMAND...` runs COMMAND with
    # /bin/sh inside HOST's namespaces (and cgroup), with a clean
    # environment as ssh would give.
    cat >"$DIR/rsh-agent" <<EOF
#!/bin/bash
# rsh agent of the mpbridge cluster in $DIR (made by scripts/cluster.sh up).
while [[ \$# -gt 0 && \$1 == -* ]]; do shift; done
host=\${1:?usage: rsh-agent HOST COMMAND...}; shift
pid=\$(cat "$DIR/\$host.pid" 2>/dev/null) || { echo "rsh-agent: no host \$host in the cluster" >&2; exit 255; }
if ! head -zn1 "/proc/\$pid/cmdline" 2>/dev/null | grep -qzx -- "$MARK-\$host"; then
    echo "rsh-agent: host \$host is down" >&2; exit 255
fi
if [[ -f "$DIR/\$host.cgroup" ]]; then
    echo \$\$ >"\$(cat "$DIR/\$host.cgroup")/cgroup.procs" || exit 255
fi
exec nsenter -t "\$pid" -u -n -m -- env -i PATH="\$PATH" HOME="\${HOME:-/root}" LANG=C $TAG="\$host" /bin/sh -c "\$*"
EOF
    chmod 755 "$DIR/rsh-agent"

    printf '%s\n' \
        --hostfile "$DIR/hostfile" \
        --mca plm_rsh_agent "$DIR/rsh-agent" \
        --mca plm_rsh_no_tree_spawn 1 \
        --mca btl_tcp_if_include "$NET.0/24" \
        --mca oob_tcp_if_include "$NET.0/24" >"$DIR/mpiexec-args"
    trap - EXIT
    cmd_status
    say "mpiexec $(tr '\n' ' ' <"$DIR/mpiexec-args")-n N PROGRAM"
}

cmd_status() {
    if [[ ! -f $DIR/hostfile ]]; then
        echo "no cluster (no $DIR/hostfile)"
        return 1
    fi
    local bad=0 line h pid state addr
    printf '%-8s %-8s %-14s %-6s %s\n' HOST PID ADDRESS STATE SPEED
    while read -r line; do
        h=${line%% *}
        pid=$(cat "$DIR/$h.pid" 2>/dev/null || echo -)
        addr=$(awk -v h="$h" '$2 == h {print $1}' "$DIR/hosts")
        if [[ $pid != - && $(holder_of "$h") == "$pid" ]]; then
            state=up
        else
            state=down; bad=1
        fi
        printf '%-8s %-8s %-14s %-6s %s\n' "$h" "$pid" "$addr" "$state" \
            "$(cat "$DIR/$h.speed" 2>/dev/null || echo -)"
    done <"$DIR/hostfile"
    echo "hostfile $DIR/hostfile, rsh agent $DIR/rsh-agent, network $(cat "$DIR/network")"
    return $bad
}

cmd_unplug() {
    local h=${1:?usage: cluster.sh unplug HOST} pid
    pid=$(holder_of "$h")
    [[ -n $pid ]] || die "no host $h is up"
    nsenter -t "$pid" -n ip link set eth0 down
    say "$h: network link down"
}

case ${1:-} in
    up) shift; cmd_up "$@" ;;
    unplug) shift; [[ $(id -u) -eq 0 ]] || die "needs root"; cmd_unplug "$@" ;;
    down) shift; [[ $(id -u) -eq 0 ]] || die "needs root"; cmd_down ;;
    status) shift; cmd_status ;;
    *) usage ;;
esac
