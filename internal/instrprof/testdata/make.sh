#!/usr/bin/env bash
# Rebuilds the small raw profiles committed here (a few KB each) from t.c:
#   ir19-{1,2}.profraw  clang-19 -fprofile-generate (raw v10, value profiles)
#   fe19.profraw        clang-19 -fprofile-instr-generate -fcoverage-mcdc (MC/DC bitmap bytes)
#   ir14.profraw        clang-14 -fprofile-generate (raw v8)
#   plain19.profraw     clang-19, names stored uncompressed
#   vt{1,2}.profraw     clang++-19 with -mllvm -enable-vtable-value-profiling
#   cs.profraw          clang-19 -fcs-profile-generate (context-sensitive)
#   sb{1,2}.profraw     clang-19 -fprofile-instr-generate -mllvm -enable-single-byte-coverage
#   tsb.profraw         clang-22 -fprofile-generate -mllvm -pgo-temporal-instrumentation -mllvm -pgo-block-coverage
#                       (temporal, single-byte counters: an 8-byte timestamp, then a byte a block)
#   *.ref.txt           llvm-profdata-19 (or -14 via an indexed file) merge --text of each
set -euo pipefail
cd "$(dirname "$0")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
run() { LLVM_PROFILE_FILE=$1 "$2" "${@:3}" >/dev/null; }
clang-19 -O1 -fprofile-generate -o "$tmp/ir19" t.c
run ir19-1.profraw "$tmp/ir19" 3
run ir19-2.profraw "$tmp/ir19" 7 x
clang-19 -O1 -fprofile-instr-generate -fcoverage-mapping -fcoverage-mcdc -o "$tmp/fe19" t.c
run fe19.profraw "$tmp/fe19" 5
clang-19 -O1 -fprofile-generate -mllvm -enable-name-compression=false -o "$tmp/plain19" t.c
run plain19.profraw "$tmp/plain19" 2
clang-14 -O1 -fprofile-generate -o "$tmp/ir14" t.c
run ir14.profraw "$tmp/ir14" 4
for f in ir19-1 ir19-2 fe19 plain19; do
	llvm-profdata-19 merge --text -o "$f.ref.txt" "$f.profraw"
done
llvm-profdata-19 merge --text -o ir19-both.ref.txt ir19-1.profraw ir19-2.profraw
llvm-profdata-14 merge -o "$tmp/ir14.profdata" ir14.profraw
llvm-profdata-19 merge --text -o ir14.ref.txt "$tmp/ir14.profdata"
# One file holding two profiles, as an executable and its DSOs write.
cat ir19-1.profraw fe19.profraw >"$tmp/cat.profraw"
llvm-profdata-19 merge --text -o cat.ref.txt "$tmp/cat.profraw"
# C++ with vtable value profiling (raw v10 vtable section).
clang++-19 -O1 -fprofile-generate -mllvm -enable-vtable-value-profiling -o "$tmp/vt" vt.cpp
run vt1.profraw "$tmp/vt" 7 || true
run vt2.profraw "$tmp/vt" 11 || true
llvm-profdata-19 merge --text -o vt.ref.txt vt1.profraw vt2.profraw
# Context-sensitive IR PGO (CS summary, CS flag in hashes) and single-byte coverage.
llvm-profdata-19 merge -o "$tmp/ir.profdata" ir19-1.profraw ir19-2.profraw
clang-19 -O1 -fprofile-use="$tmp/ir.profdata" -fcs-profile-generate -o "$tmp/cs" t.c
run cs.profraw "$tmp/cs" 5
llvm-profdata-19 merge --text -o cs.ref.txt cs.profraw
clang-19 -O1 -fprofile-instr-generate -mllvm -enable-single-byte-coverage -o "$tmp/sb" t.c
run sb1.profraw "$tmp/sb" 3
run sb2.profraw "$tmp/sb" 6 x
llvm-profdata-19 merge --text -o sb.ref.txt sb1.profraw sb2.profraw
clang-22 -O1 -fprofile-generate -mllvm -pgo-temporal-instrumentation -mllvm -pgo-block-coverage -o "$tmp/tsb" t.c
run tsb.profraw "$tmp/tsb" 3
llvm-profdata-22 merge --text -o tsb.ref.txt tsb.profraw
# Front-end hashes of clang 21 and older (version 3) and clang 22 (version 4,
# top 4 bits clear): twelve functions large enough to be MD5-hashed.
for v in 19 22; do
	clang-$v -O1 -fprofile-instr-generate -fcoverage-mapping -o "$tmp/fehash$v" fehash.c
	run fehash$v.profraw "$tmp/fehash$v" 50
done
