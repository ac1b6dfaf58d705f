#!/bin/bash
# The bench as a Slurm job array: one shard of the case list per array task, then one job that
# merges the parts into one report (`deno task report --merge`, which names any case missing or
# duplicated). From the repository's root on a login node (Node.js and npm on the nodes; on nodes
# without a registry, see docs/gpu-check.md "It runs offline"):
#
#   SHARDS=8 BENCH_ARGS="--suite claims --scale small" bash examples/slurm.sh
#
# submits the array (tasks 0 … SHARDS−1) and the gather job, which runs once every task has ended
# (afterany: a failed task's cases are named missing in the report). Task i runs `--shard i+1/N`
# (the bench's shards count from 1, Slurm's task ids from 0) with N = SLURM_ARRAY_TASK_COUNT, and
# writes $OUT/part-i/results.jsonl; OUT must be on a file system every node sees.
#SBATCH --job-name=mergesplit
#SBATCH --gpus=1
#SBATCH --cpus-per-task=4
#SBATCH --time=04:00:00
#SBATCH --output=mergesplit-%A_%a.out
set -euo pipefail

SHARDS="${SHARDS:-4}"
BENCH_ARGS="${BENCH_ARGS:---suite claims --scale small}"

if [[ -z "${SLURM_JOB_ID:-}" ]]; then
  # On the login node: submit the array, then the gather job after it.
  OUT="${OUT:-$PWD/mergesplit-$(date +%Y%m%d-%H%M%S)}"
  export OUT BENCH_ARGS
  array=$(sbatch --parsable --array="0-$((SHARDS - 1))" --export=ALL "$0")
  sbatch --dependency="afterany:${array%%;*}" --export=ALL,GATHER=1 --job-name=mergesplit-gather \
    --gpus=0 "$0"
  echo "submitted array job ${array%%;*} ($SHARDS shards); results and report in $OUT"
  exit 0
fi

if [[ -n "${GATHER:-}" ]]; then
  # The gather job: the parts as one run.
  npx -y deno@2.9.6 task report "$OUT"/part-*/results.jsonl --merge --out "$OUT/report.html"
else
  # One array task: its shard of the case list.
  npx -y deno@2.9.6 run -A bench/main.ts $BENCH_ARGS --shard "$((SLURM_ARRAY_TASK_ID + 1))/$SLURM_ARRAY_TASK_COUNT" --out "$OUT/part-$SLURM_ARRAY_TASK_ID"
fi
