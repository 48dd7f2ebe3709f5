#!/usr/bin/env bash
# Builds the small test binaries of internal/generate/testdata from src/.
# Needs clang-19 and gcc-12. The binaries are committed (a few KB each).
set -euo pipefail
cd "$(dirname "$0")"
flags="-O2 -g -fdebug-info-for-profiling"
clang++-19 $flags -fPIE -pie -o cxx-pie.bin src/main.cc src/work.cc
clang++-19 $flags -gdwarf-4 -fno-pie -no-pie -fcf-protection=full -o cxx-nopie-dwarf4.bin src/main.cc src/work.cc
gcc-12 -O2 -g -fcf-protection -fno-pie -no-pie -o gcc-nopie.bin src/gcc.c
gcc-12 -O2 -g -fcf-protection -fPIE -pie -o gcc-pie.bin src/gcc.c
clang++-19 $flags -mllvm -enable-fs-discriminator=true -o cxx-fsdiscr.bin src/main.cc src/work.cc
# Hot/cold splitting (foo.cold parts: functions with several ranges), driven
# by profgen's own profile of cxx-pie.bin.
clang++-19 $flags -fprofile-sample-use=golden/cxx-pie.txt -fsplit-machine-functions \
	-mllvm -enable-fs-discriminator=true -o cxx-split.bin src/main.cc src/work.cc
# Pseudo probes (-fpseudo-probe-for-profiling). clang orders the records of
# .pseudo_probe by heap address: no address space randomization, same bytes.
setarch "$(uname -m)" -R clang++-19 $flags -fPIE -pie -fpseudo-probe-for-profiling -o cxx-probe.bin src/main.cc src/work.cc
setarch "$(uname -m)" -R clang++-19 $flags -fPIE -pie -fpseudo-probe-for-profiling -mllvm -enable-fs-discriminator=true \
	-o cxx-fsprobe.bin src/main.cc src/work.cc
# Probes and machine function splitting (.cold parts), driven by profgen's
# probe profile of cxx-probe.bin (golden/cxx-probe.txt: its lbrgen trace,
# period 997, workload 3000).
setarch "$(uname -m)" -R clang++-19 $flags -fPIE -pie -fpseudo-probe-for-profiling -fprofile-sample-use=golden/cxx-probe.txt \
	-fsplit-machine-functions -mllvm -enable-fs-discriminator=true -o cxx-probe-split.bin src/main.cc src/work.cc
