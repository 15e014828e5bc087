# Session 21, call 9: 256x256x16384 (automatic: 64x128 in 8 slices summed in clusters of 8, 13.7 µs;
# the table's parallel:8:c1 13.1) and 128x256x32768 with the 64x64 and 64x128 tiles in 4 / 8 / 16
# / 32 slices through the workspace, beside automatic and cuBLASLt; three rounds.
B=build-probe/s21/bench/graphgemm_bench
[ -f $B.gz ] && gunzip -f $B.gz; chmod +x $B
T64=sm90=sm90_bf16_bf16_64x64x64_s13_c1x1_bk
T64N=sm90=sm90_bf16_bf16_64x128x64_s8_c1x1_bk
be=cublaslt,sm90
for s in 4 8 16 32; do be+=",$T64:parallel:$s:c1,$T64N:parallel:$s:c1"; done
for r in 1 2 3; do
  for shape in 256x256x16384 128x256x32768; do
    timeout 100 $B --shape $shape --dtypes bf16 --no-peak --out $OUT/c9_${shape}_r$r --backends "$be" > $OUT/c9_${shape}_r$r.log 2>&1
    echo "round $r $shape rc $?"
  done
done
