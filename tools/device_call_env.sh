# Sourced by a device call script (bench/results/h100/experiments_s*/call*.sh) on the GPU machine,
# from the repository root, after it sets B (the packed build, tools/pack_prebuilt.sh): unpacks B,
# puts its library first on LD_LIBRARY_PATH, prints the GPU's name, and sets
#   X  the bench binary          T  the GPU test binary
#   P  the bf16 kernel name prefix (sm90_bf16_bf16_)
#   S  the folder of tile_table.py (experiments_s55), the per-backend time / automatic table
#   reverse LIST  prints a comma-separated list backwards (a second round in the opposite order).
tools/unpack_prebuilt.sh "$B"
export LD_LIBRARY_PATH=$PWD/$B${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
nvidia-smi --query-gpu=name --format=csv,noheader
X=$B/bench/graphgemm_bench
T=$B/tests/graphgemm_gpu_tests
P=sm90_bf16_bf16_
S=bench/results/h100/experiments_s55
reverse() { echo "$1" | tr ',' '\n' | tac | paste -sd,; }
