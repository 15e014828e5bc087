# Session 21: the splitk shapes that automatic runs unsplit on 33-48 CTAs (128x1536x7168,
# 64x2112x7168) with the split-capable tiles forced beside automatic and cuBLASLt, two rounds:
# 64x64 in 2 / 3 slices through the workspace, 2 summed in 2-CTA clusters, serial 2; 64x128 in 4
# (workspace, clusters of 4); 128x128 in 8 / 11 (workspace) and 8 in clusters of 8. Bench built
# from 2806cc8 (the library of main), carried prebuilt. PART=1 / PART=2: one part only (calls 7 / 8).
B=build-probe/s21/bench/graphgemm_bench
[ -f $B.gz ] && gunzip -f $B.gz; chmod +x $B
T64=sm90=sm90_bf16_bf16_64x64x64_s13_c1x1_bk
T64N=sm90=sm90_bf16_bf16_64x128x64_s8_c1x1_bk
T128=sm90=sm90_bf16_bf16_128x128x64_s6_c1x1_bk
be=cublaslt,sm90,$T64:parallel:2:c1,$T64:parallel:3:c1,$T64:parallel:2:c2,$T64:serial:2,$T64N:parallel:4:c1,$T64N:parallel:4:c4,$T128:parallel:8:c1,$T128:parallel:11:c1,$T128:parallel:8:c8
[ "${PART:-all}" = 2 ] || for r in 1 2; do
  timeout 200 $B --suites splitk --dtypes bf16 --no-peak --out $OUT/split_tiles_r$r --backends "$be" > $OUT/split_tiles_r$r.log 2>&1
  echo "round $r rc $?"
done

# Second part (call 8): serial splits in 2 / 3 with the automatic tile, 2 through the workspace,
# and the 64x64 tile in serial 2, beside automatic, over llm M = 64-256 and splitk; two rounds.
be2=cublaslt,sm90,sm90:serial:2,sm90:serial:3,sm90:parallel:2:c1,$T64:serial:2
[ "${PART:-all}" = 1 ] || for r in 1 2; do
  timeout 250 $B --suites llm,splitk --min-m 64 --max-m 256 --dtypes bf16 --no-peak --out $OUT/serial_r$r --backends "$be2" > $OUT/serial_r$r.log 2>&1
  echo "serial round $r rc $?"
done
