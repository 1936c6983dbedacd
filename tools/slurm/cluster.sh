#!/usr/bin/env bash
# usage: tools/slurm/cluster.sh start DIR
#        tools/slurm/cluster.sh stop DIR
#
# A one-node Slurm cluster on this machine, from Debian's packages
# (slurm-wlm, munge; installed if missing), to run tools/slurm/'s job
# arrays where no cluster is at hand: one machine is a cluster of one.
#
# start writes DIR/slurm.conf (state, spool, pids and logs in DIR; the
# node as `slurmd -C` describes this machine; one partition), starts
# munged if it is not running and the two Slurm daemons, waits until the
# node is idle and prints the line that points Slurm's commands at it:
#
#   export SLURM_CONF=DIR/slurm.conf
#
# The controller listens on port $GAMUT_SLURM_PORT (16817 if unset) and
# the node's daemon on the next one: two clusters on one machine need two.
#
# stop cancels every job of the cluster, stops its daemons (and munged, if
# start started it) and leaves DIR with its logs. Both run as root. The
# cgroup plugins need cgroups a machine or container may not mount (every
# job then fails and the node drains), so processes are tracked through
# /proc and tasks are not bound: fine for one node, not for production.
set -euo pipefail
if [ $# -ne 2 ] || { [ "$1" != start ] && [ "$1" != stop ]; }; then
    echo "usage: $0 start|stop DIR" >&2
    exit 2
fi
if [ "$(id -u)" != 0 ]; then
    echo "error: run as root (it starts munged and the Slurm daemons)" >&2
    exit 2
fi
action=$1
mkdir -p "$2"
dir=$(cd "$2" && pwd)
conf=$dir/slurm.conf

if [ "$action" = stop ]; then
    if [ -f "$conf" ]; then
        export SLURM_CONF=$conf
        scancel --full "--user=$(id -un)" 2>/dev/null || true
        for _ in $(seq 50); do
            [ -z "$(squeue -h 2>/dev/null)" ] && break
            sleep 0.2
        done
    fi
    for daemon in slurmctld slurmd; do
        if [ -f "$dir/$daemon.pid" ]; then
            pid=$(cat "$dir/$daemon.pid")
            kill "$pid" 2>/dev/null || true
            for _ in $(seq 50); do
                kill -0 "$pid" 2>/dev/null || break
                sleep 0.1
            done
            rm -f "$dir/$daemon.pid"
        fi
    done
    if [ -f "$dir/munged.started" ]; then
        kill "$(cat /run/munge/munged.pid 2>/dev/null)" 2>/dev/null || true
        rm -f "$dir/munged.started"
    fi
    exit 0
fi

if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null || ! command -v munged >/dev/null; then
    echo "== installing slurm-wlm and munge" >&2
    apt-get update >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y slurm-wlm munge >&2
fi

# munge: the package's key; munged runs as its own user.
if ! munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then
    mkdir -p /run/munge
    chown munge:munge /run/munge
    chmod 755 /run/munge
    if [ -d /var/log/munge ]; then chown -R munge:munge /var/log/munge; fi
    runuser -u munge -- munged
    touch "$dir/munged.started"
    for _ in $(seq 50); do
        munge -n 2>/dev/null | unmunge >/dev/null 2>&1 && break
        sleep 0.1
    done
    if ! munge -n | unmunge >/dev/null; then
        echo "error: munged did not start" >&2
        exit 1
    fi
fi

port=${GAMUT_SLURM_PORT:-16817}
if ! [[ $port =~ ^[1-9][0-9]*$ ]] || [ "$port" -gt 65534 ]; then
    echo "error: GAMUT_SLURM_PORT must be a port number below 65535, not '$port'" >&2
    exit 2
fi
chmod 755 "$dir"
mkdir -p "$dir/state" "$dir/spool"
host=$(hostname -s)
cat >"$conf" <<CONF
ClusterName=gamut
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
MailProg=/bin/true
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
JobRequeue=1
MinJobAge=3600
$(slurmd -C | head -n 1) State=UNKNOWN
PartitionName=main Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$conf
# The daemons run in the foreground of their own sessions, so that they
# outlive this script and its terminal; each writes its pid file.
setsid slurmctld -D -f "$conf" >"$dir/slurmctld.out" 2>&1 </dev/null &
setsid slurmd -D -f "$conf" >"$dir/slurmd.out" 2>&1 </dev/null &
for _ in $(seq 100); do
    [ "$(sinfo -h -o %T 2>/dev/null)" = idle ] && break
    sleep 0.2
done
if [ "$(sinfo -h -o %T 2>/dev/null)" != idle ]; then
    echo "error: the node is not idle: $(sinfo 2>&1 | tail -n 1); logs in $dir" >&2
    "$0" stop "$dir"
    exit 1
fi
echo "export SLURM_CONF=$conf"
