#!/usr/bin/env bash
# Runs a command as a Slurm job array on a private, throw-away, single-node
# Slurm cluster (munged, slurmctld, slurmd) that it starts on this machine and
# tears down again. Every config, state, log and task-output file lives under
# WORKDIR/slurm; /etc/slurm and /etc/munge are never written. Each of the COUNT
# array tasks (indices 0..COUNT-1) runs COMMAND (its words joined by spaces)
# through `bash -c`, in the caller's working directory, with SLURM_ARRAY_TASK_ID
# set, so quote it for the task to expand: '... $SLURM_ARRAY_TASK_ID ...'.
#
#   tests/sweep/slurm_array.sh WORKDIR COUNT COMMAND...
#
# Exit codes: 0 every task exited 0; 1 a task failed or the array ran out of time
# (the failed tasks and the tail of their output are printed on stderr);
# 2 usage error; 77 Slurm cannot be used here (one "SKIP: ..." line on stderr).
# Needs root: the daemons run as root. Timeouts (seconds) can be set in the
# environment: SLURM_ARRAY_START_TIMEOUT (60: until the node is idle) and
# SLURM_ARRAY_RUN_TIMEOUT (300: from submission until every task has ended).
set -euo pipefail

readonly start_timeout=${SLURM_ARRAY_START_TIMEOUT:-60}
readonly run_timeout=${SLURM_ARRAY_RUN_TIMEOUT:-300}
node=$(hostname -s)
readonly node

# Filled in as things are started; teardown stops only what is recorded here.
run=""            # WORKDIR/slurm
munge_dir=""      # private munged's directory (socket, key, log)
munge_tmpdir=""   # set when that directory had to go under /tmp (long WORKDIR)
munged_pid=""
munge_sock=""     # socket Slurm must use; empty for the system default
ctld_pid=""
slurmd_pid=""
job_id=""

usage() {
    echo "usage: $0 WORKDIR COUNT COMMAND..." >&2
    exit 2
}

# One line on stderr and exit 77: the harness reports the test as skipped.
skip() {
    echo "SKIP: $*" >&2
    exit 77
}

now_ms() { echo $(( $(date +%s%N) / 1000000 )); }

alive() { [[ -n $1 ]] && kill -0 "$1" 2>/dev/null; }

# Last non-empty line of the given log files, for one-line messages.
last_log_line() { cat "$@" 2>/dev/null | grep -v '^[[:space:]]*$' | tail -n 1 | cut -c1-200 || true; }

# --- checks ----------------------------------------------------------------

check_tools() {
    local tool missing=()
    for tool in munged munge unmunge slurmctld slurmd sbatch squeue sinfo scontrol scancel; do
        command -v "$tool" >/dev/null 2>&1 || missing+=("$tool")
    done
    (( ${#missing[@]} == 0 )) || skip "slurm_array: not installed here: ${missing[*]}"
    [[ $(id -u) == 0 ]] || skip "slurm_array: needs root to start the Slurm daemons"
}

# Refuse a WORKDIR whose daemons from an earlier run are still alive (e.g. after
# a kill -9): they are not ours to stop, and their files are about to be wiped.
check_workdir_unused() {
    local pidfile pid daemon
    for pidfile in "$run"/slurmctld.pid "$run"/slurmd.pid "$run"/munge/munged.pid; do
        [[ -f $pidfile ]] || continue
        pid=$(cat "$pidfile" 2>/dev/null || true)
        daemon=$(basename "$pidfile" .pid)
        if [[ $pid =~ ^[0-9]+$ ]] && [[ $(cat "/proc/$pid/comm" 2>/dev/null) == "$daemon" ]]; then
            skip "slurm_array: $run is still used by a running $daemon (pid $pid)"
        fi
    done
}

# --- ports -----------------------------------------------------------------

# True when some TCP socket (IPv4 or IPv6, any state) uses local port $1.
port_in_use() {
    local hex
    hex=$(printf ':%04X' "$1")
    awk -v p="$hex" 'FNR > 1 && substr($2, length($2) - 4) == p { found = 1 } END { exit !found }' \
        /proc/net/tcp /proc/net/tcp6 2>/dev/null
}

# A random free port in 17000-29999 (below the ephemeral range), not $1.
pick_port() {
    local avoid=${1:-0} port _
    for _ in $(seq 1 100); do
        port=$(( 17000 + RANDOM % 13000 ))
        [[ $port != "$avoid" ]] && ! port_in_use "$port" && { echo "$port"; return 0; }
    done
    return 1
}

# --- munge -----------------------------------------------------------------

munge_answers() { # [SOCKET]
    local sock_opt=()
    [[ -n ${1:-} ]] && sock_opt=(--socket="$1")
    timeout 5 munge -n "${sock_opt[@]}" 2>/dev/null | timeout 5 unmunge "${sock_opt[@]}" >/dev/null 2>&1
}

# Uses the system munged when one answers; otherwise starts a private one with
# its own key and socket (so the system's /run/munge and key are left alone).
# Sets munge_sock to the private daemon's socket.
start_munge() {
    if munge_answers; then
        echo "slurm: using the munge daemon already running"
        return 0
    fi
    munge_dir=$run/munge
    # A Unix socket path must fit in 108 bytes.
    if (( ${#munge_dir} > 80 )); then
        munge_tmpdir=$(mktemp -d /tmp/slurm_array_munge.XXXXXX)
        munge_dir=$munge_tmpdir
    fi
    mkdir -p "$munge_dir"
    chmod 0711 "$munge_dir"   # munged wants the socket's directory searchable
    local key=$munge_dir/munge.key sock=$munge_dir/munge.socket
    if ! mungekey --create --keyfile="$key" >/dev/null 2>&1; then
        dd if=/dev/urandom of="$key" bs=1 count=1024 status=none
    fi
    chmod 0600 "$key"
    munged --foreground --force --socket="$sock" --key-file="$key" \
        --pid-file="$munge_dir/munged.pid" --log-file="$munge_dir/munged.log" \
        --seed-file="$munge_dir/munged.seed" </dev/null >>"$munge_dir/munged.out" 2>&1 &
    munged_pid=$!
    local deadline=$(( SECONDS + 10 ))
    until munge_answers "$sock"; do
        if ! alive "$munged_pid" || (( SECONDS >= deadline )); then
            skip "slurm_array: munged did not start: $(last_log_line "$munge_dir"/munged.{log,out})"
        fi
        sleep 0.2
    done
    munge_sock=$sock
    echo "slurm: private munged started"
}

# --- slurm -----------------------------------------------------------------

# slurm.conf for one node and one partition, everything under $run.
write_slurm_conf() { # CTLD_PORT SLURMD_PORT MUNGE_SOCKET COUNT
    local ctld_port=$1 slurmd_port=$2 sock=$3 count=$4
    local max_array=$(( count + 1 > 1001 ? count + 1 : 1001 ))
    local max_jobs=$(( 2 * count + 100 > 10000 ? 2 * count + 100 : 10000 ))
    : >"$run/plugstack.conf"   # no SPANK plugins from /etc/slurm/plugstack.conf.d
    cat >"$run/slurm.conf" <<EOF
# Generated by tests/sweep/slurm_array.sh for a throw-away single-node cluster.
ClusterName=sloshlab
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
${sock:+AuthInfo=socket=$sock}
StateSaveLocation=$run/state
SlurmdSpoolDir=$run/spool
SlurmctldPidFile=$run/slurmctld.pid
SlurmdPidFile=$run/slurmd.pid
SlurmctldLogFile=$run/log/slurmctld.log
SlurmdLogFile=$run/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
PlugStackConfig=$run/plugstack.conf
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
# Plain FIFO, and start array tasks within ~1 s of a slot freeing (default 3 s).
SchedulerType=sched/builtin
SchedulerParameters=batch_sched_delay=0
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
MailProg=/bin/true
ReturnToService=2
KillWait=5
MinJobAge=$(( run_timeout + 600 ))
MaxArraySize=$max_array
MaxJobCount=$max_jobs
NodeName=$node NodeAddr=127.0.0.1 CPUs=$(nproc) RealMemory=1000 State=UNKNOWN
PartitionName=sweep Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF
}

start_slurmctld() { # PORT
    slurmctld -D -c -f "$run/slurm.conf" </dev/null >>"$run/log/slurmctld.out" 2>&1 &
    ctld_pid=$!
    local deadline=$(( SECONDS + start_timeout ))
    until scontrol ping 2>/dev/null | grep -q 'is UP'; do
        if ! alive "$ctld_pid" || (( SECONDS >= deadline )); then
            skip "slurm_array: slurmctld did not start: $(last_log_line "$run"/log/slurmctld.{log,out})"
        fi
        sleep 0.2
    done
    echo "slurm: controller up on port $1"
}

node_state() { sinfo -h -N -n "$node" -o '%T' 2>/dev/null | head -n 1 || true; }

start_slurmd() {
    slurmd -D -f "$run/slurm.conf" -N "$node" </dev/null >>"$run/log/slurmd.out" 2>&1 &
    slurmd_pid=$!
    local deadline=$(( SECONDS + start_timeout ))
    until [[ $(node_state) == idle ]]; do
        alive "$ctld_pid" ||
            skip "slurm_array: slurmctld died: $(last_log_line "$run"/log/slurmctld.{log,out})"
        alive "$slurmd_pid" ||
            skip "slurm_array: slurmd did not start: $(last_log_line "$run"/log/slurmd.{log,out})"
        (( SECONDS < deadline )) ||
            skip "slurm_array: node $node not idle after ${start_timeout}s: $(sinfo -h -N -n "$node" -o 'state %T, reason %E' 2>/dev/null | head -n 1)"
        sleep 0.2
    done
    echo "slurm: node $node idle with $(nproc) CPUs"
}

# The batch script every array task runs: COMMAND through bash -c.
write_task_script() { # COMMAND
    {
        echo '#!/bin/bash'
        echo '# Generated by tests/sweep/slurm_array.sh: one array task.'
        printf 'exec bash -c %q\n' "$1"
    } >"$run/task.sh"
    chmod +x "$run/task.sh"
}

submit_array() { # COUNT
    local out
    if ! out=$(sbatch --parsable --job-name=sweep --array="0-$(( $1 - 1 ))" \
            --ntasks=1 --no-requeue --output="$run/out/task_%a.out" "$run/task.sh" 2>&1); then
        skip "slurm_array: sbatch failed: $(echo "$out" | tail -n 1)"
    fi
    job_id=${out%%;*}
    echo "slurm: array of $1 tasks submitted as job $job_id"
}

# "TASK STATE EXITCODE" per array task (pending ranges show as e.g. "2-3").
task_table() {
    local line id state code
    scontrol -o show job "$job_id" 2>/dev/null | while IFS= read -r line; do
        [[ $line =~ (^|[[:space:]])ArrayTaskId=([^[:space:]]+) ]] || continue
        id=${BASH_REMATCH[2]}
        [[ $line =~ (^|[[:space:]])JobState=([^[:space:]]+) ]] && state=${BASH_REMATCH[2]} || state='?'
        [[ $line =~ (^|[[:space:]])ExitCode=([^[:space:]]+) ]] && code=${BASH_REMATCH[2]} || code='?'
        echo "$id $state $code"
    done | sort -n
}

is_final_state() {
    case $1 in
        COMPLETED|FAILED|CANCELLED|TIMEOUT|NODE_FAIL|PREEMPTED|BOOT_FAIL|DEADLINE|OUT_OF_MEMORY) return 0 ;;
        *) return 1 ;;
    esac
}

# True when COUNT tasks are listed and every one has ended.
all_tasks_ended() { # COUNT
    local table id state code n=0
    table=$(task_table)
    while read -r id state code; do
        [[ -n $id ]] || continue
        is_final_state "$state" || return 1
        n=$(( n + 1 ))
    done <<<"$table"
    (( n == $1 ))
}

# Waits for the array; returns 0 when all COUNT tasks ended, 1 on timeout or
# a dead controller.
wait_for_array() { # COUNT
    local deadline=$(( SECONDS + run_timeout ))
    until all_tasks_ended "$1"; do
        if ! alive "$ctld_pid" || ! alive "$slurmd_pid"; then
            echo "slurm: a Slurm daemon died while the array ran (logs in $run/log)" >&2
            return 1
        fi
        if (( SECONDS >= deadline )); then
            echo "slurm: array not finished after ${run_timeout}s" >&2
            return 1
        fi
        sleep 0.5
    done
}

# Prints every task that did not exit 0 with the tail of its output; returns 1
# when there was one.
report_failures() {
    local id state code failed=()
    while read -r id state code; do
        [[ -n $id ]] || continue
        [[ $state == COMPLETED && $code == 0:0 ]] && continue
        failed+=("$id")
        if is_final_state "$state"; then
            echo "slurm: task $id failed: state $state, exit code $code" >&2
        else
            echo "slurm: task $id did not finish: state $state" >&2
        fi
        [[ -s $run/out/task_$id.out ]] || continue
        echo "slurm: tail of $run/out/task_$id.out:" >&2
        tail -n 10 "$run/out/task_$id.out" | sed 's/^/    /' >&2
    done <<<"$(task_table)"
    (( ${#failed[@]} == 0 )) && return 0
    echo "slurm: ${#failed[@]} of $job_count task(s) failed: ${failed[*]}" >&2
    return 1
}

# --- teardown --------------------------------------------------------------

stop_daemon() { # PID
    local pid=$1 _
    alive "$pid" || { wait "$pid" 2>/dev/null || true; return 0; }
    kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 1 100); do
        alive "$pid" || break
        sleep 0.1
    done
    alive "$pid" && kill -KILL "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null || true
}

# Cancels what is left of the array, then stops the daemons this run started.
teardown() {
    local rc=$? _
    trap - EXIT
    set +e
    if [[ -n $job_id ]] && alive "$ctld_pid" && ! all_tasks_ended "$job_count"; then
        scancel "$job_id" 2>/dev/null
        for _ in $(seq 1 40); do
            squeue -h -j "$job_id" 2>/dev/null | grep -q . || break
            sleep 0.5
        done
    fi
    stop_daemon "$slurmd_pid"
    stop_daemon "$ctld_pid"
    stop_daemon "$munged_pid"
    [[ -n $munge_tmpdir ]] && rm -rf "$munge_tmpdir"
    exit "$rc"
}

# --- main ------------------------------------------------------------------

main() {
    (( $# >= 3 )) || usage
    local workdir=$1 count=$2
    shift 2
    [[ $count =~ ^[1-9][0-9]{0,5}$ ]] || usage
    job_count=$count
    check_tools

    mkdir -p "$workdir"
    workdir=$(cd "$workdir" && pwd)
    run=$workdir/slurm
    check_workdir_unused
    rm -rf "$run"
    mkdir -p "$run"/{state,spool,log,out}

    # Only our own settings: no inherited job context or sbatch/squeue options.
    local var
    for var in $(compgen -e); do
        [[ $var =~ ^(SLURM|SBATCH|SQUEUE|SINFO|SCONTROL|SCANCEL)_ ]] && unset "$var"
    done
    export SLURM_CONF=$run/slurm.conf

    trap teardown EXIT
    trap 'exit 130' INT
    trap 'exit 143' TERM

    local ctld_port slurmd_port
    if ! ctld_port=$(pick_port) || ! slurmd_port=$(pick_port "$ctld_port"); then
        skip "slurm_array: no free TCP port found in 17000-29999"
    fi
    start_munge
    write_slurm_conf "$ctld_port" "$slurmd_port" "$munge_sock" "$count"
    start_slurmctld "$ctld_port"
    start_slurmd

    write_task_script "$*"
    local t0
    t0=$(now_ms)
    submit_array "$count"
    if ! wait_for_array "$count"; then
        report_failures || true
        exit 1
    fi
    local ms=$(( $(now_ms) - t0 ))
    report_failures || exit 1
    printf 'slurm: all %d tasks done in %d.%d s\n' "$count" $(( ms / 1000 )) $(( ms % 1000 / 100 ))
}

job_count=0
main "$@"
