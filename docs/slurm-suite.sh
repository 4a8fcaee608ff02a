#!/usr/bin/env bash
# Run one shard of a GameWorld suite as a Slurm array task.
#   sbatch --array=0-7 docs/slurm-suite.sh registry/suites/full.yaml
#SBATCH --job-name=gameworld
#SBATCH --cpus-per-task=4
#SBATCH --mem=8G
#SBATCH --time=12:00:00
#SBATCH --output=logs/gameworld-%A_%a.out
set -euo pipefail
suite=${1:?usage: sbatch --array=0-N docs/slurm-suite.sh SUITE.yaml}
name=$(basename "$suite" .yaml)
out=${GAMEWORLD_OUT:-out/$name}/shard-${SLURM_ARRAY_TASK_ID}
mkdir -p "$out" logs
# The shard index and count come from SLURM_ARRAY_TASK_ID / _COUNT / _MIN.
# --resume makes a re-queued (pre-empted) task pick up where it stopped.
gameworld suite "$suite" --out "$out" --max-parallel "${SLURM_CPUS_PER_TASK:-2}" --resume --plain
