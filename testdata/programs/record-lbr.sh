#!/usr/bin/env bash
# record-lbr.sh PROG ARGS...: traces bin/PROG (build.sh) with tools/lbrgen
# under valgrind: the exact LBR samples of one run of bin/PROG ARGS,
# written to PROG-without--gcc.lbr.script with the binary named by its
# base name. Same bytes on every run (seeded; needs valgrind). The traces:
#   record-lbr.sh neverrun-gcc 10 1000   weigh's loop 10 times a call, 1000
#                                        calls, its branch never (cmd/profgen
#                                        TestGCCRowNeverRunBranch: gcc-12's
#                                        crash on zero counts, docs/gcc.md)
#   record-lbr.sh anonns-gcc 2000        run's loop 2000 times: the virtual
#                                        eval methods of an anonymous
#                                        namespace (TestGCCRowAnonymousNamespace)
set -euo pipefail
prog=${1:?usage: record-lbr.sh PROG ARGS...}
shift
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$root" && go build -o "$tmp/lbrgen" ./tools/lbrgen)
cd "$here"
"$tmp/lbrgen" -binary "bin/$prog" -path "$prog" -seed 1 -period 2000 -depth 16 \
	-single "${prog%-gcc}.lbr.script" -- "$@"
