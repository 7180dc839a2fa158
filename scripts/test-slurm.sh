#!/usr/bin/env bash
# make test-slurm: sharding for real on a one-node Slurm cluster.
#
# Installs Debian's slurm-wlm and munge when missing, starts munged,
# slurmctld and slurmd with a configuration generated in a temporary
# directory (no systemd, no accounting, custom ports), then for a small
# sweep and a small DAG set:
#   1. runs the command unsharded, locally;
#   2. exports it with `capplan export slurm --shards N`, submits the job
#      array and the dependent merge with submit.sh --wait;
#   3. checks that the merged document is byte-identical to the local one.
# Every daemon it started is stopped by PID at the end, also on failure.
# Needs root (slurmd runs jobs as the submitting user, munged as munge);
# it re-runs itself with sudo when started as another user.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)

SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
if ! command -v slurmctld >/dev/null 2>&1 || ! command -v munged >/dev/null 2>&1 || ! command -v sbatch >/dev/null 2>&1; then
	echo "test-slurm: installing slurm-wlm and munge"
	$SUDO apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq slurm-wlm munge >/dev/null
fi
if [ "$(id -u)" -ne 0 ]; then
	# slurmd and munged need root: run the rest under sudo, keeping Go's
	# environment (PATH, GOPATH, caches).
	exec sudo -E env "PATH=$PATH" "$0" "$@"
fi
if [ ! -s /etc/munge/munge.key ]; then
	runuser -u munge -- mungekey --create --keyfile=/etc/munge/munge.key
fi

D=$(mktemp -d /tmp/capplan-slurm.XXXXXX)
chmod 755 "$D"
mkdir -p "$D/state" "$D/spool" "$D/log" "$D/munge" "$D/bin" "$D/work"
chown munge:munge "$D/munge"
pids=()

# stop cancels our jobs, stops every daemon we started (by PID) and, on
# failure, prints their logs.
stop() {
	status=$?
	set +e
	cd /
	if [ -n "${SLURM_CONF:-}" ] && [ ${#pids[@]} -gt 0 ]; then
		scancel --quiet --user="$(id -un)" 2>/dev/null
		for _ in $(seq 20); do
			[ -z "$(squeue -h 2>/dev/null)" ] && break
			sleep 0.5
		done
	fi
	for p in "${pids[@]}" $(cat "$D/munge/munged.pid" 2>/dev/null); do
		kill "$p" 2>/dev/null
	done
	for p in "${pids[@]}" $(cat "$D/munge/munged.pid" 2>/dev/null); do
		for _ in $(seq 50); do
			kill -0 "$p" 2>/dev/null || break
			sleep 0.1
		done
		kill -9 "$p" 2>/dev/null
	done
	# Job steps run in processes of their own (slurmstepd and the script);
	# any left working in our directory is ours: stop it by PID.
	for p in $(ls /proc | grep -E '^[0-9]+$'); do
		[ "$p" = "$$" ] && continue
		case "$(readlink "/proc/$p/cwd" 2>/dev/null)" in
		"$D"*) kill -9 "$p" 2>/dev/null ;;
		esac
	done
	if [ "$status" -ne 0 ]; then
		echo "test-slurm: FAILED; logs:" >&2
		tail -n 30 "$D"/log/* "$D"/work/*.out 2>/dev/null >&2
	fi
	rm -rf "$D"
	exit "$status"
}
trap stop EXIT
trap 'exit 1' INT TERM

# A free TCP port from the given one upwards.
free_port() {
	local p=$1
	while (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; do p=$((p + 1)); done
	echo "$p"
}

go build -o "$D/bin/capplan" ./cmd/capplan
capplan="$D/bin/capplan"

host=$(hostname -s)
cpus=$(nproc)
mem=$(awk '/MemTotal/ {print int($2/1024*0.8)}' /proc/meminfo)
ctld_port=$(free_port 16817)
d_port=$(free_port $((ctld_port + 1)))
cat >"$D/slurm.conf" <<CONF
ClusterName=capplan
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$D/munge/munge.socket
CryptoType=crypto/munge
MpiDefault=none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
SchedulerType=sched/backfill
ReturnToService=2
StateSaveLocation=$D/state
SlurmdSpoolDir=$D/spool
SlurmctldPidFile=$D/slurmctld.pid
SlurmdPidFile=$D/slurmd.pid
SlurmctldLogFile=$D/log/slurmctld.log
SlurmdLogFile=$D/log/slurmd.log
SlurmctldPort=$ctld_port
SlurmdPort=$d_port
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
MaxArraySize=10001
NodeName=$host CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=capplan Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$D/slurm.conf"

runuser -u munge -- munged --socket="$D/munge/munge.socket" --pid-file="$D/munge/munged.pid" \
	--log-file="$D/munge/munged.log" --seed-file="$D/munge/seed"
slurmctld -D -f "$SLURM_CONF" >"$D/log/ctld.out" 2>&1 &
pids+=($!)
slurmd -D -f "$SLURM_CONF" >"$D/log/d.out" 2>&1 &
pids+=($!)
for i in $(seq 60); do
	if sinfo -h -o %T 2>/dev/null | grep -q idle; then break; fi
	[ "$i" -eq 60 ] && { echo "test-slurm: the node did not come up" >&2; exit 1; }
	sleep 0.5
done
echo "test-slurm: slurmctld (port $ctld_port) and slurmd (port $d_port) up on $host"

cd "$D/work"
# check NAME SHARDS LOCAL-DOC MERGED-DOC -- COMMAND...: runs COMMAND here
# unsharded, then exported as a Slurm array of SHARDS tasks and merged, and
# compares the two documents byte for byte.
check() {
	local name=$1 shards=$2 local_doc=$3 merged_doc=$4
	shift 5
	local t0=$SECONDS
	"$capplan" "$@" >/dev/null
	"$capplan" export slurm --shards "$shards" --cpu 1 --memory 256Mi --capplan "$capplan" --chdir "$D/work" \
		--name "capplan-$name" -o "jobs-$name" -- "${@/%local-*/sharded-$name}" >/dev/null 2>&1
	"jobs-$name/slurm/submit.sh" --wait
	if ! cmp "$local_doc" "$merged_doc"; then
		echo "test-slurm: $name: the merged document differs from the unsharded run's" >&2
		exit 1
	fi
	echo "test-slurm: $name: $shards shards merged byte-identical to the local run ($((SECONDS - t0)) s)"
}

# A small sweep: 3 policies × 4 seeds × 2 loads on the example workload.
check sweep 3 local-sweep/sweep.json sharded-sweep/sweep.json -- \
	sweep --example --policies fifo,drf,srtf --baseline drf --seeds 1..4 --loads 0.6,0.8 -o local-sweep
# A small DAG set: the first 400 lines of the Alibaba sample when it is
# there, else the example workload, scheduled with Graphene.
ali="$repo/../shared/datasets/alibaba-v2018/batch_task_dag_sample_hliangzhao.csv"
if [ -r "$ali" ]; then
	head -n 400 "$ali" >dags.csv
	mkdir -p local-dags
	check dags 4 local-dags/schedule.json sharded-dags/schedule.json -- \
		dag schedule dags.csv --method graphene -o local-dags/schedule.json
else
	mkdir -p local-dags
	check dags 3 local-dags/schedule.json sharded-dags/schedule.json -- \
		dag schedule --example --machines 4 -o local-dags/schedule.json
fi
echo "test-slurm: ok"
