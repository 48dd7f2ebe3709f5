#!/bin/sh
# Rebuilds probe.elf, the test binary of the pseudo-probe decoder (20 KB):
# clang-19 -O2 -g -fpseudo-probe-for-profiling. clang-19 orders the
# records of .pseudo_probe by heap address, so it runs without address
# space randomization (setarch -R) to give the same bytes every time.
set -eu
cd "$(dirname "$0")"
setarch "$(uname -m)" -R clang-19 -O2 -g -fpseudo-probe-for-profiling -fdebug-prefix-map="$PWD"=. \
	-Wl,-z,noseparate-code -Wl,--build-id=sha1 -o probe.elf probe.c
# The same with flow-sensitive discriminators: probes carry discriminators.
setarch "$(uname -m)" -R clang-19 -O2 -g -fpseudo-probe-for-profiling -mllvm -enable-fs-discriminator=true \
	-fdebug-prefix-map="$PWD"=. -Wl,-z,noseparate-code -Wl,--build-id=sha1 -o probe-fs.elf probe.c
