#!/usr/bin/env bash
# Call-stack conversion: profgen --perfdata (perf script through a pipe +
# aggregation + DWARF + pprof) next to perf report on the same perf.data,
# and profgen --perfscript next to perf script alone.
set -euo pipefail
bin=$(realpath "${1:?usage: 60-callstack.sh PROFGEN TESTDATA}")
dir=${2:?usage: 60-callstack.sh PROFGEN TESTDATA}/callstack
[ -s "$dir/big.script" ] || { echo "callstack: no test data, skipped"; exit 0; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
measure() { /usr/bin/time -f '%e %M' "$@" 2>&1 >/dev/null | tail -1; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }'; }
row() {
	read -r pt pm <<<"$2"
	read -r rt rm <<<"$3"
	printf '%-34s profgen %6.2fs %7d KB | %-12s %6.2fs %7d KB | ratio %s time %s rss\n' \
		"$1" "$pt" "$pm" "$4" "$rt" "$rm" "$(ratio "$pt" "$rt")" "$(ratio "$pm" "$rm")"
}
p=$(measure "$bin" --binary "$dir/forky" --perfdata "$dir/big.perf.data" --format=pprof -o "$tmp/a.pprof")
r=$(measure perf report -i "$dir/big.perf.data" --no-children --sort sym --stdio -g none)
row "callstack --perfdata pprof" "$p" "$r" "perf report"
p=$(measure "$bin" --binary "$dir/forky" --perfscript "$dir/big.script" -o "$tmp/a.prof")
r=$(measure perf script -i "$dir/big.perf.data" -F pid,time,period,event,ip,sym,dso --show-mmap-events --show-task-events)
row "callstack --perfscript text" "$p" "$r" "perf script"
# A real recording of >= 20k samples and an 11.5 MiB-text Go binary
# (scripts/testdata.d/70-nonpie.sh).
go=${2}/nonpie
if [ -s "$go/nonpiego.perf.data" ]; then
	p=$(measure "$bin" --binary "$go/nonpiego" --perfdata "$go/nonpiego.perf.data" --format=pprof -o "$tmp/g.pprof" -q)
	r=$(measure perf report -i "$go/nonpiego.perf.data" --no-children --sort sym --stdio -g none)
	row "callstack Go --perfdata pprof" "$p" "$r" "perf report"
fi
