package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// The parity table: each row runs profgen and the real llvm-profdata-19 on
// the same inputs with the same flags (llvm gets its own spelling where
// profgen accepts more) and compares what they produce. Inputs are named
// {name}: a file of testdata/parity, a raw of internal/instrprof/testdata
// ({raw:ir19-1}), or the indexed profile llvm-profdata-19 makes of a
// testdata/parity/*.proftext ({idx:pseudo}); {out} is each tool's own output
// file.

// compareMode is what a row compares.
type compareMode int

const (
	sameBytes     compareMode = iota // the output files are byte-identical
	sameText                         // llvm-profdata-19 renders both outputs as the same text
	sameStdout                       // both print the same text
	bothFail                         // both exit non-zero; profgen leaves no output file
	sameWarnings                     // same output bytes and llvm's warning lines on stderr
	sameMessages                     // same output bytes and llvm's per-function messages on stderr
	sameShow                         // llvm-profdata-22 show --all-functions --counts --ic-targets --show-vtables prints both the same
	sameMemStdout                    // both print the same text but for the address of each MIB's access histogram (llvm's heap copy)
	profgenOnly                      // llvm-profdata fails where profgen succeeds: a deliberate difference (docs/instrumentation.md)
)

type parityRow struct {
	name    string
	args    []string // flags and inputs, for both tools
	llvm    []string // llvm-profdata-19's arguments when they differ
	compare compareMode
	tool    string // the reference when not llvm-profdata-19
	// env are NAME=VALUE settings for both tools' runs ({out} is each
	// tool's output file).
	env []string
}

var parityTable = []parityRow{
	// Item 6: flags.
	{name: "sample text then binary: last wins", args: []string{"merge", "--sample", "--text", "--binary", "-o", "{out}", "{a.sample.txt}"}},
	{name: "sample binary then text: last wins", args: []string{"merge", "--sample", "--binary", "--text", "-o", "{out}", "{a.sample.txt}"}},
	{name: "sample extbinary", args: []string{"merge", "--sample", "--extbinary", "-o", "{out}", "{a.sample.txt}", "{b.sample.txt}"}},
	{name: "sample gen-partial-profile", args: []string{"merge", "--sample", "--gen-partial-profile", "-o", "{out}", "{a.sample.txt}"}},
	{name: "sample profile-isfs", args: []string{"merge", "--sample", "--extbinary", "--profile-isfs", "-o", "{out}", "{a.sample.txt}"}},
	{name: "sample compress-all-sections", args: []string{"merge", "--sample", "--compress-all-sections", "-o", "{out}", "{a.sample.txt}", "{b.sample.txt}"}, compare: sameText},
	{name: "sample compress, md5, partial", args: []string{"merge", "--sample", "--extbinary", "--compress-all-sections", "--use-md5", "--gen-partial-profile", "-o", "{out}", "{a.sample.txt}"}, compare: sameText},
	{name: "sample text ignores use-md5", args: []string{"merge", "--sample", "--text", "--use-md5", "-o", "{out}", "{a.sample.txt}"}, compare: sameWarnings},
	{name: "sample binary ignores compress", args: []string{"merge", "--sample", "--binary", "--compress-all-sections", "--gen-partial-profile", "-o", "{out}", "{a.sample.txt}"}, compare: sameWarnings},
	{name: "instr then sample: sample wins", args: []string{"merge", "--instr", "--sample", "-o", "{out}", "{a.sample.txt}"}},
	{name: "sample then instr on sample input", args: []string{"merge", "--sample", "--instr", "-o", "{out}", "{a.sample.txt}"}, compare: bothFail},
	{name: "--sample on raws", args: []string{"merge", "--sample", "-o", "{out}", "{raw:ir19-1}"}, compare: bothFail},
	// merge --sample --gcc: llvm-profdata refuses to write it, profgen
	// writes GCC AutoFDO (docs/gcc.md; internal/profmerge's TestMergeGCC).
	{name: "instr gcc output", args: []string{"merge", "--gcc", "-o", "{out}", "{raw:ir19-1}"}, compare: bothFail},
	{name: "instr --instr", args: []string{"merge", "--instr", "-o", "{out}", "{raw:ir19-1}", "{raw:ir19-2}"}},
	{name: "instr extbinary is indexed", args: []string{"merge", "--extbinary", "-o", "{out}", "{raw:ir19-1}"}},
	{name: "instr text then binary", args: []string{"merge", "--text", "--binary", "-o", "{out}", "{raw:ir19-1}", "{raw:fe19}"}},
	{name: "instr binary then text", args: []string{"merge", "--binary", "--text", "-o", "{out}", "{raw:ir19-1}", "{raw:fe19}"}},
	{name: "-j=1", args: []string{"merge", "-j=1", "-o", "{out}", "{raw:ir19-1}", "{raw:ir19-2}"}},
	{name: "-j1 (llvm: -j=1)", args: []string{"merge", "-j1", "-o", "{out}", "{raw:ir19-1}", "{raw:ir19-2}"}, llvm: []string{"merge", "-j=1", "-o", "{out}", "{raw:ir19-1}", "{raw:ir19-2}"}},
	{name: "-j 2", args: []string{"merge", "-j", "2", "-o", "{out}", "{raw:ir19-1}", "{raw:ir19-2}", "{raw:vt1}"}},
	{name: "--num-threads=2", args: []string{"merge", "--num-threads=2", "-o", "{out}", "{raw:vt1}", "{raw:vt2}"}},
	{name: "-num-threads 1 (single dash)", args: []string{"merge", "-num-threads", "1", "-o", "{out}", "{raw:sb1}", "{raw:sb2}"}},

	// Item 8: semantics.
	{name: "FE and IR raws of one program", args: []string{"merge", "-o", "{out}", "{raw:fe19}", "{raw:ir19-1}", "{raw:ir19-2}"}},
	{name: "sum clamped: counter overflow", args: []string{"merge", "-o", "{out}", "{idx:big}", "{idx:big}"}, compare: sameMessages},
	{name: "weight clamped: counter overflow", args: []string{"merge", "-o", "{out}", "--weighted-input=9223372036854775807,{raw:ir19-1}", "{raw:ir19-1}"}, compare: sameMessages},
	{name: "pseudo counts left out of the summary", args: []string{"merge", "-o", "{out}", "{idx:pseudo}"}},
	// Records of one name and hash with other shapes: profgen keeps the
	// largest shape in any order; llvm the first read. Where the largest
	// comes later, llvm is given it first (docs/instrumentation.md: deliberate differences).
	{name: "pseudo then real: real kept", args: []string{"merge", "-o", "{out}", "{idx:pseudo}", "{idx:real}"},
		llvm: []string{"merge", "-o", "{out}", "{idx:real}", "{idx:pseudo}"}, compare: sameMessages},
	{name: "real then pseudo: real kept", args: []string{"merge", "-o", "{out}", "{idx:real}", "{idx:pseudo}"}, compare: sameMessages},
	{name: "pseudo and pseudo", args: []string{"merge", "-o", "{out}", "{idx:pseudo}", "{idx:pseudo}"}},
	{name: "weighted pseudo: clamped", args: []string{"merge", "-o", "{out}", "--weighted-input=3,{idx:pseudo}"}, compare: sameMessages},
	{name: "counter mismatch: raw first", args: []string{"merge", "-o", "{out}", "{raw:ir19-1}", "{idx:main2}"}, compare: sameMessages},
	{name: "counter mismatch: indexed first", args: []string{"merge", "-o", "{out}", "{idx:main2}", "{raw:ir19-1}"},
		llvm: []string{"merge", "-o", "{out}", "{raw:ir19-1}", "{idx:main2}"}, compare: sameMessages},
	{name: "counter mismatch -j1, 3 inputs", args: []string{"merge", "-j1", "-o", "{out}", "{idx:main2}", "{raw:ir19-1}", "{raw:ir19-2}"},
		llvm: []string{"merge", "-j=1", "-o", "{out}", "{raw:ir19-1}", "{idx:main2}", "{raw:ir19-2}"}, compare: sameMessages},
	{name: "counter mismatch -j2, first input kept", args: []string{"merge", "-j2", "-o", "{out}", "{raw:ir19-2}", "{idx:main2}", "{raw:ir19-1}"},
		llvm: []string{"merge", "-j=1", "-o", "{out}", "{raw:ir19-2}", "{idx:main2}", "{raw:ir19-1}"}, compare: sameMessages},
	{name: "counter mismatch --failure-mode=all", args: []string{"merge", "--failure-mode=all", "-o", "{out}", "{raw:ir19-1}", "{idx:main2}", "{raw:ir19-2}"},
		llvm: []string{"merge", "-j=1", "--failure-mode=all", "-o", "{out}", "{raw:ir19-1}", "{idx:main2}", "{raw:ir19-2}"}, compare: sameMessages},

	{name: "counter of 2^56 accepted", args: []string{"merge", "-o", "{out}", "{counter56.profraw}"}},
	{name: "counter above 2^56 refused", args: []string{"merge", "-o", "{out}", "{counter57.profraw}", "{raw:ir19-2}"}, compare: bothFail},
	// LLVM's malformed-num-counters-zero steps: with --failure-mode=all or
	// warn the file with a counter above 2^56 is merged as it is, and
	// counts as failed (issue 34).
	{name: "counter above 2^56 merged with --failure-mode=all", args: []string{"merge", "--failure-mode=all", "-o", "{out}", "{counter57.profraw}", "{raw:ir19-2}"}},
	{name: "counter above 2^56 alone, --failure-mode=all: failed", args: []string{"merge", "--failure-mode=all", "-o", "{out}", "{counter57.profraw}"}, compare: bothFail},
	{name: "counter above 2^56 alone, --failure-mode=warn: merged", args: []string{"merge", "--failure-mode=warn", "-o", "{out}", "{counter57.profraw}"}},
	{name: "show of a raw with a counter above 2^56", args: []string{"show", "--all-functions", "--counts", "{counter57.profraw}"}, compare: sameStdout},
	{name: "raw with a function of zero counters refused", args: []string{"show", "{rawv:le64zero}"}, compare: bothFail},
	{name: "names chunk: zlib stream longer than declared", args: []string{"merge", "-o", "{out}", "{names-packed-short.profraw}"}, compare: bothFail},
	{name: "names chunk: inflates beyond its declared size", args: []string{"merge", "-o", "{out}", "{names-plain-short.profraw}"}, compare: bothFail},
	{name: "vtable names damaged", args: []string{"merge", "-o", "{out}", "{vtnames-corrupt.profraw}"}, compare: bothFail},
	{name: "vtable names inflate beyond their size", args: []string{"merge", "-o", "{out}", "{vtnames-plain-short.profraw}"}, compare: bothFail},
	{name: "indexed without its last 8 bytes refused", args: []string{"merge", "-o", "{out}", "{indexed-cut8.profdata}"}, compare: bothFail},
	{name: "indexed with binary ids offset 0 refused", args: []string{"merge", "-o", "{out}", "{indexed-ids0.profdata}"}, compare: bothFail},

	// Item 8, sample profiles.
	{name: "sample total overflow", args: []string{"merge", "--sample", "--text", "-o", "{out}", "{big1.sample.txt}", "{big2.sample.txt}"}, compare: sameMessages},
	{name: "sample weight overflow", args: []string{"merge", "--sample", "-o", "{out}", "--weighted-input=2,{big1.sample.txt}", "{a.sample.txt}"}, compare: sameMessages},

	// Item 5: input options: symbol lists, function filters, remapping,
	// temporal profile traces; failure modes (item 6).
	{name: "sample --prof-sym-list", args: []string{"merge", "--sample", "--prof-sym-list={syms.txt}", "-o", "{out}", "{a.sample.txt}"}},
	{name: "sample --prof-sym-list to text: warned", args: []string{"merge", "--sample", "--text", "--prof-sym-list={syms.txt}", "-o", "{out}", "{a.sample.txt}"}, compare: sameWarnings},
	{name: "sample --drop-profile-symbol-list", args: []string{"merge", "--sample", "--drop-profile-symbol-list", "-o", "{out}", "{sp:symlist.extbinary}"}},
	{name: "sample symbol lists merged", args: []string{"merge", "--sample", "-o", "{out}", "{sp:symlist.extbinary}", "{sp:profgen.symlist.extbinary}"}},
	{name: "sample --function", args: []string{"merge", "--sample", "--text", "--function=ma", "-o", "{out}", "{a.sample.txt}", "{b.sample.txt}"}},
	{name: "sample --no-function", args: []string{"merge", "--sample", "--no-function=^f", "-o", "{out}", "{a.sample.txt}", "{b.sample.txt}"}},
	{name: "sample --function and --no-function", args: []string{"merge", "--sample", "--function=a", "--no-function=^b", "-o", "{out}", "{a.sample.txt}", "{b.sample.txt}"}},
	{name: "instr --function", args: []string{"merge", "--function=t.c", "-o", "{out}", "{raw:ir19-1}", "{raw:fe19}"}},
	{name: "instr --no-function", args: []string{"merge", "--no-function=^(main|both)$", "-o", "{out}", "{raw:ir19-1}", "{raw:ir19-2}"}},

	// (a damaged file's kind header is ignored too, unlike llvm: README)
	{name: "--failure-mode=warn, nothing mergeable: empty profile", args: []string{"merge", "--failure-mode=warn", "-o", "{out}", "{garbage.profraw}"}},
	{name: "--failure-mode=all, nothing mergeable", args: []string{"merge", "--failure-mode=all", "-o", "{out}", "{bad.proftext}"}, compare: bothFail},
	{name: "--failure-mode=warn, one damaged", args: []string{"merge", "--failure-mode=warn", "-o", "{out}", "{bad.proftext}", "{raw:ir19-1}"}},

	{name: "instr --remapping-file: renamed and merged", args: []string{"merge", "--remapping-file={remap.txt}", "-o", "{out}", "{raw:ir19-1}", "{raw:ir19-2}"}},
	{name: "instr -r to text", args: []string{"merge", "-r", "{remap.txt}", "--text", "-o", "{out}", "{raw:ir19-1}", "{idx:irfe}"}},
	{name: "sample --remapping-file: targets and inlinees too", args: []string{"merge", "--sample", "--remapping-file={remap.txt}", "-o", "{out}", "{a.sample.txt}", "{b.sample.txt}", "{sp:inline.txt}"}},
	{name: "bad remapping file", args: []string{"merge", "--remapping-file={badremap.txt}", "-o", "{out}", "{raw:ir19-1}"}, compare: bothFail},

	{name: "temporal raws", args: []string{"merge", "-o", "{out}", "{temporal1.profraw}", "{temporal2.profraw}"}},
	{name: "temporal raws to text", args: []string{"merge", "--text", "-o", "{out}", "{temporal1.profraw}", "{temporal2.profraw}"}},
	{name: "temporal weighted raw", args: []string{"merge", "-o", "{out}", "--weighted-input=3,{temporal1.profraw}", "{temporal2.profraw}"}},
	{name: "temporal indexed (weight not applied)", args: []string{"merge", "-o", "{out}", "--weighted-input=3,{idx:temporal}"}},
	{name: "temporal text input (weight not applied)", args: []string{"merge", "-o", "{out}", "--weighted-input=2,{txt:temporal}"}},
	{name: "temporal text input and raws", args: []string{"merge", "-o", "{out}", "{txt:temporal}", "{temporal1.profraw}", "{raw:ir19-1}"}},
	{name: "temporal max trace length", args: []string{"merge", "--temporal-profile-max-trace-length=2", "--text", "-o", "{out}", "{temporal1.profraw}", "{idx:temporal}"}},
	{name: "temporal -j2", args: []string{"merge", "-j2", "-o", "{out}", "{temporal2.profraw}", "{temporal1.profraw}", "{idx:temporal}"},
		llvm: []string{"merge", "-j=1", "-o", "{out}", "{temporal2.profraw}", "{temporal1.profraw}", "{idx:temporal}"}},

	// Item 5: indexed profiles of versions 1 to 6 as inputs ({old:N}, made
	// by parity_oldindexed_test.go).
	{name: "indexed v1", args: []string{"merge", "-o", "{out}", "{old:1}"}},
	{name: "indexed v2: records sharing a name", args: []string{"merge", "-o", "{out}", "{old:2}"}},
	{name: "indexed v3: value profiles", args: []string{"merge", "-o", "{out}", "{old:3}"}},
	{name: "indexed v4: summary", args: []string{"merge", "-o", "{out}", "{old:4}"}},
	{name: "indexed v5", args: []string{"merge", "--text", "-o", "{out}", "{old:5}"}},
	{name: "indexed v6 with v3 and raws", args: []string{"merge", "-o", "{out}", "{old:6}", "{old:3}", "{raw:ir19-1}"}},
	{name: "show indexed v1", args: []string{"show", "--all-functions", "--counts", "{old:1}"}, compare: sameStdout},
	{name: "show indexed v3", args: []string{"show", "--all-functions", "--counts", "--ic-targets", "{old:3}"}, compare: sameStdout},
	{name: "show indexed v6 --function", args: []string{"show", "--function=foo", "--counts", "{old:6}"}, compare: sameStdout},

	// Item 5: raws of 32-bit and big-endian programs ({rawv:NAME}, made by
	// parity_rawvariants_test.go).
	{name: "raw 64-bit little-endian (hand-made)", args: []string{"merge", "-o", "{out}", "{rawv:le64}"}},
	{name: "raw 32-bit little-endian", args: []string{"merge", "-o", "{out}", "{rawv:le32}"}},
	{name: "raw 64-bit big-endian", args: []string{"merge", "-o", "{out}", "{rawv:be64}"}},
	{name: "raw 32-bit big-endian", args: []string{"merge", "-o", "{out}", "{rawv:be32}"}},
	{name: "raws of every kind merged", args: []string{"merge", "-o", "{out}", "{rawv:le32}", "{rawv:be64}", "{rawv:be32}", "{raw:ir19-1}"}},
	// llvm-profdata-19 reads only version 10 raws; -14 reads version 8 (but
	// maps no indirect-call target of a big-endian one: TestRawVariantsAgree).
	{name: "raw 32-bit v8 = llvm-profdata-14", args: []string{"merge", "--output-version=7", "-o", "{out}", "{rawv:le32v8}"},
		llvm: []string{"merge", "-o", "{out}", "{rawv:le32v8}"}, tool: "llvm-profdata-14"},
	{name: "show raw 32-bit big-endian", args: []string{"show", "--all-functions", "--counts", "--ic-targets", "{rawv:be32}"}, compare: sameStdout},
	{name: "show raw", args: []string{"show", "--all-functions", "--counts", "--ic-targets", "--memop-sizes", "{raw:ir19-1}"}, compare: sameStdout},
	{name: "show raw --text with vtable names", args: []string{"show", "--text", "--all-functions", "{raw:vt1}"}, compare: sameStdout},
	{name: "show raw --profile-version --binary-ids", args: []string{"show", "--profile-version", "--binary-ids", "{raw:cs}"}, compare: sameStdout},
	{name: "show raw --detailed-summary", args: []string{"show", "--detailed-summary", "--topn=2", "{raw:fe19}"}, compare: sameStdout},

	// Item 5: GCC AutoFDO (gcov) sample profiles as inputs.
	{name: "gcc profile to extbinary", args: []string{"merge", "--sample", "-o", "{out}", "{sp:gcc.afdo}"}},
	{name: "gcc profile to text", args: []string{"merge", "--sample", "--text", "-o", "{out}", "{sp:gcc.afdo}"}},
	{name: "gcc profile to binary", args: []string{"merge", "--sample", "--binary", "-o", "{out}", "{sp:gcc.afdo}"}},
	{name: "gcc and text profiles, weighted", args: []string{"merge", "--sample", "--text", "-o", "{out}", "--weighted-input=3,{sp:gcc.afdo}", "{a.sample.txt}"}},
	{name: "show --sample gcc profile", args: []string{"show", "--sample", "{sp:gcc.afdo}"}, compare: sameStdout},
	{name: "show --sample --detailed-summary gcc profile", args: []string{"show", "--sample", "--detailed-summary", "{sp:gcc.afdo}"}, llvm: []string{"show", "--sample", "--detailed-summary", "{sp:gcc.afdo}"}, compare: sameStdout},

	// Item 5: --convert-sample-profile-layout.
	{name: "flat layout to text", args: []string{"merge", "--sample", "--text", "--convert-sample-profile-layout=flat", "-o", "{out}", "{sp:inline.txt}"}},
	{name: "flat layout of several inputs", args: []string{"merge", "--sample", "--convert-sample-profile-layout=flat", "-o", "{out}", "{sp:inline.txt}", "{sp:gcc.afdo}", "{a.sample.txt}"}},
	{name: "flat layout, pre-inlined", args: []string{"merge", "--sample", "--convert-sample-profile-layout=flat", "-o", "{out}", "{sp:profgen-preinlined.extbinary}"}},
	// (the checksums of a pseudo-probe profile come in llvm's hash-map order)
	{name: "flat layout, pseudo-probe", args: []string{"merge", "--sample", "--convert-sample-profile-layout=flat", "-o", "{out}", "{sp:profgen-probe.extbinary}"}, compare: sameText},
	{name: "flat layout then --function", args: []string{"merge", "--sample", "--text", "--convert-sample-profile-layout=flat", "--function=deeper", "-o", "{out}", "{sp:inline.txt}"}},
	{name: "nest layout of a profile without contexts", args: []string{"merge", "--sample", "--convert-sample-profile-layout=nest", "-o", "{out}", "{sp:inline.txt}"}},
	{name: "bad layout", args: []string{"merge", "--sample", "--convert-sample-profile-layout=deep", "-o", "{out}", "{sp:inline.txt}"}, compare: bothFail},
	// Nested CS profiles (LLVM's cs-sample-nested-profile class; inputs
	// hand-written, testdata/parity/README): each context inlined into its
	// caller context's profile, those without one made top-level; with
	// --generate-merged-base-profiles every context merged into its
	// function's profile too. Extbinary lists the function metadata in
	// LLVM's hash map order, so those rows compare the text.
	{name: "nest layout of contexts", args: nestRow("--text", "{cs-nest.sample.txt}")},
	{name: "nest layout, --generate-merged-base-profiles", args: nestRow("--text", "--generate-merged-base-profiles", "{cs-nest.sample.txt}")},
	{name: "nest layout, --generate-merged-base-profiles=0", args: nestRow("--text", "--generate-merged-base-profiles=0", "{cs-nest.sample.txt}")},
	{name: "nest layout, probes", args: nestRow("--text", "{cs-nest-probe.sample.txt}")},
	{name: "nest layout, probes, merged base: a checksum mismatch dropped", args: nestRow("--text", "--generate-merged-base-profiles", "{cs-nest-probe.sample.txt}")},
	{name: "nest layout to extbinary", args: nestRow("--extbinary", "{cs-nest.sample.txt}"), compare: sameText},
	{name: "nest layout to extbinary, probes, merged base, md5", args: nestRow("--extbinary", "--use-md5", "--generate-merged-base-profiles", "{cs-nest-probe.sample.txt}"), compare: sameText},
	{name: "nest layout to binary", args: nestRow("--binary", "{cs-nest.sample.txt}")},
	{name: "nest layout of profgen's CS extbinary, merged base", args: nestRow("--text", "--generate-merged-base-profiles", "{sp:cs/flat.extbinary}")},
	{name: "nest layout of weighted CS profiles", args: nestRow("--text", "--weighted-input=3,{cs-nest.sample.txt}", "{cs-flat-noprobe.sample.txt}")},
	{name: "nest layout after cold contexts merged and trimmed", args: nestRow("--text", "--sample-merge-cold-context", "--sample-trim-cold-context", "--generate-merged-base-profiles", "{cs-nest-probe.sample.txt}")},
	{name: "nest layout then --function", args: nestRow("--text", "--function=worker", "{cs-nest.sample.txt}")},
	{name: "--generate-merged-base-profiles without nest: flat contexts kept", args: []string{"merge", "--sample", "--text", "--generate-merged-base-profiles", "-o", "{out}", "{cs-nest.sample.txt}"}},

	// Item 6: --split-layout (llvm-profdata 20; -19 reads the layout, so
	// its rendering of profgen's file is compared with its own merge).
	{name: "--split-layout", args: []string{"merge", "--sample", "--split-layout", "-o", "{out}", "{sp:inline.txt}", "{a.sample.txt}"},
		llvm: []string{"merge", "--sample", "-o", "{out}", "{sp:inline.txt}", "{a.sample.txt}"}, compare: sameText},
	{name: "--split-layout --compress-all-sections --use-md5", args: []string{"merge", "--sample", "--split-layout", "--compress-all-sections", "--use-md5", "-o", "{out}", "{sp:profgen-preinlined.extbinary}"},
		llvm: []string{"merge", "--sample", "--compress-all-sections", "--use-md5", "-o", "{out}", "{sp:profgen-preinlined.extbinary}"}, compare: sameText},
	{name: "--split-layout ignored for binary", args: []string{"merge", "--sample", "--binary", "--split-layout", "-o", "{out}", "{sp:inline.txt}"},
		llvm: []string{"merge", "--sample", "--binary", "-o", "{out}", "{sp:inline.txt}"}},

	// Item 9: output for older compilers.
	{name: "--output-version=7 = llvm-profdata-14", args: []string{"merge", "--output-version=7", "-o", "{out}", "{raw:ir14}"},
		llvm: []string{"merge", "-o", "{out}", "{raw:ir14}"}, tool: "llvm-profdata-14"},
	{name: "--output-version=7 of clang-14 and clang-19 raws = llvm-profdata-14 of both", args: []string{"merge", "--output-version=7", "-o", "{out}", "{raw:ir14}", "{raw:ir19-1}", "{raw:plain19}"},
		llvm: []string{"merge", "-o", "{out}", "{raw:ir14}", "{txt:ir19p}"}, tool: "llvm-profdata-14"},
	{name: "--output-version=9 refused before reading", args: []string{"merge", "--output-version=9", "-o", "{out}", "{raw:ir19-1}"},
		llvm: []string{"merge", "--bogus-flag", "-o", "{out}", "{raw:ir19-1}"}, compare: bothFail},
	{name: "--output-version=7 refuses MC/DC bitmaps", args: []string{"merge", "--output-version=7", "-o", "{out}", "{raw:fe19}"},
		llvm: []string{"merge", "-o", "{out}", "{raw:fe19}"}, tool: "llvm-profdata-14", compare: bothFail},

	// Item 5: inputs: instrumentation text (.proftext).
	{name: "proftext: hand-written value sites", args: []string{"merge", "-o", "{out}", "{values.proftext}"}},
	{name: "proftext: hand-written front-end with bitmap", args: []string{"merge", "-o", "{out}", "{fe.proftext}"}},
	{name: "proftext: weighted, twice", args: []string{"merge", "-o", "{out}", "--weighted-input=3,{values.proftext}", "{values.proftext}"}},
	{name: "proftext: to text", args: []string{"merge", "--text", "-o", "{out}", "{values.proftext}", "{values.proftext}"}},
	{name: "proftext: llvm's text of IR raws", args: []string{"merge", "-o", "{out}", "{txt:ir19}"}},
	{name: "proftext: llvm's text of vtable raws", args: []string{"merge", "-o", "{out}", "{txt:vt}"}},
	{name: "proftext: llvm's text of FE MC/DC raws", args: []string{"merge", "-o", "{out}", "{txt:fe19}"}},
	{name: "proftext: llvm's text of CS raws", args: []string{"merge", "-o", "{out}", "{txt:cs}"}},
	{name: "proftext: llvm's text of single-byte coverage", args: []string{"merge", "-o", "{out}", "{txt:sb}"}},
	{name: "proftext: with raws and indexed", args: []string{"merge", "-o", "{out}", "{txt:ir19}", "{raw:ir19-1}", "{idx:ir19}"}},
	{name: "proftext: pseudo counts", args: []string{"merge", "-o", "{out}", "{pseudo.proftext}", "{real.proftext}"},
		llvm: []string{"merge", "-o", "{out}", "{real.proftext}", "{pseudo.proftext}"}, compare: sameMessages},
	{name: "proftext: bad hash", args: []string{"merge", "-o", "{out}", "{bad.proftext}"}, compare: bothFail},
	{name: "proftext: value without a symbol name", args: []string{"merge", "--text", "-o", "{out}", "{empty-symbol.proftext}"}, compare: bothFail},

	// Classes found running LLVM's own llvm-profdata tests (issue 10).
	{name: "proftext: hash and bitmap radix (0x, 0b, octal, decimal)", args: []string{"merge", "-o", "{out}", "{radix.proftext}"}},
	{name: "show of a proftext, as text", args: []string{"show", "--all-functions", "--counts", "--text", "{radix.proftext}"}, compare: sameStdout},
	{name: "show of a proftext --detailed-summary-cutoffs", args: []string{"show", "--detailed-summary", "--detailed-summary-cutoffs=600000,900000,999999", "--detailed-summary-cutoffs", "10", "{radix.proftext}"}, compare: sameStdout},
	{name: "show --detailed-summary-cutoffs", args: []string{"show", "--detailed-summary", "--detailed-summary-cutoffs=999999,500000", "{idx:irfe}"}, compare: sameStdout},
	// Temporal traces and order follow llvm-profdata-19: 22 changed how
	// sampled trace streams merge (LLVM PR 152563) and order's result
	// (docs/llvm22-output.md), so these rows run against 19 only.
	{name: "proftext traces: names trimmed", args: []string{"merge", "--text", "-o", "{out}", "{traces-sampled.proftext}"}, tool: "llvm-profdata-19"},
	{name: "sampled traces cut to nothing keep their stream size", args: []string{"merge", "--output-version=12", "--temporal-profile-trace-reservoir-size=2", "--temporal-profile-max-trace-length=0", "-o", "{out}", "{traces-sampled.proftext}"},
		llvm: []string{"merge", "--temporal-profile-trace-reservoir-size=2", "--temporal-profile-max-trace-length=0", "-o", "{out}", "{traces-sampled.proftext}"}, tool: "llvm-profdata-19"},
	{name: "bitmap size mismatch: counters merged, larger bitmap kept", args: []string{"merge", "-o", "{out}", "{bitmap1.proftext}", "{bitmap2.proftext}", "{bitmap2.proftext}"},
		llvm: []string{"merge", "-o", "{out}", "{bitmap2.proftext}", "{bitmap2.proftext}", "{bitmap1.proftext}"}, compare: sameMessages},
	{name: "bitmap size mismatch, other order", args: []string{"merge", "-o", "{out}", "{bitmap2.proftext}", "{bitmap1.proftext}"}, compare: sameMessages},
	{name: "merge --dump-input-file-list", args: []string{"merge", "--dump-input-file-list", "-o", "{out}", "{raw:ir19-1}", "--weighted-input=3,{values.proftext}"}, compare: sameStdout},
	// Cold contexts of a CS profile (below the cold count threshold of its
	// context-less summary) merged into their last frames, or dropped.
	{name: "sample CS --sample-merge-cold-context", args: []string{"merge", "--sample", "--text", "--sample-merge-cold-context", "-o", "{out}", "{sp:cs/flat.txt}"}},
	{name: "sample CS --sample-trim-cold-context", args: []string{"merge", "--sample", "--text", "--sample-trim-cold-context", "-o", "{out}", "{sp:cs/flat.extbinary}"}},
	{name: "sample CS merge and trim cold contexts", args: []string{"merge", "--sample", "--text", "--sample-merge-cold-context", "--sample-trim-cold-context", "-o", "{out}", "{sp:cs/flat.txt}"}},
	{name: "sample CS merge cold contexts to 2 frames", args: []string{"merge", "--sample", "--text", "--sample-merge-cold-context", "--sample-frame-depth-for-cold-context=2", "-o", "{out}", "{sp:cs/flat.txt}"}},
	{name: "sample CS merge and trim cold contexts to 3 frames, extbinary", args: []string{"merge", "--sample", "--sample-merge-cold-context", "--sample-trim-cold-context", "--sample-frame-depth-for-cold-context=3", "-o", "{out}", "{sp:cs/flat.txt}"}, compare: sameText},
	{name: "sample --sample-merge-cold-context without contexts: nothing to do", args: []string{"merge", "--sample", "--text", "--sample-merge-cold-context", "--sample-trim-cold-context", "-o", "{out}", "{a.sample.txt}", "{b.sample.txt}"}},
	// --output-size-limit: the coldest functions dropped until the output fits.
	{name: "sample --output-size-limit, text", args: []string{"merge", "--sample", "--text", "--output-size-limit=150", "-o", "{out}", "{sp:inline.txt}"}},
	{name: "sample --output-size-limit, binary", args: []string{"merge", "--sample", "--binary", "--output-size-limit=300", "-o", "{out}", "{sp:profgen.extbinary}"}},
	{name: "sample --output-size-limit, extbinary", args: []string{"merge", "--sample", "--output-size-limit=500", "-o", "{out}", "{sp:profgen.extbinary}", "{sp:inline.txt}"}},
	{name: "sample --output-size-limit, CS text", args: []string{"merge", "--sample", "--text", "--output-size-limit=1000", "-o", "{out}", "{sp:cs/flat.txt}"}},
	{name: "sample --output-size-limit above the size", args: []string{"merge", "--sample", "--output-size-limit=1000000", "-o", "{out}", "{sp:inline.txt}"}},
	{name: "sample --output-size-limit nothing fits", args: []string{"merge", "--sample", "--text", "--output-size-limit=10", "-o", "{out}", "{sp:inline.txt}"}, compare: bothFail},
	{name: "sample CS flattened: contexts merged, attributes dropped", args: []string{"merge", "--sample", "--convert-sample-profile-layout=flat", "--text", "-o", "{out}", "{cs-flatten.sample.txt}"}},

	// Item 7: show, llvm's text for llvm's flags.
	{name: "show", args: []string{"show", "{idx:vt}"}, compare: sameStdout},
	{name: "show --all-functions", args: []string{"show", "--all-functions", "{idx:vt}"}, compare: sameStdout},
	{name: "show --all-functions --counts", args: []string{"show", "--all-functions", "--counts", "{idx:irfe}"}, compare: sameStdout},
	{name: "show --function substring", args: []string{"show", "--function=t.c", "--counts", "{idx:irfe}"}, compare: sameStdout},
	{name: "show front-end profile", args: []string{"show", "--all-functions", "--counts", "{idx:fe19}"}, compare: sameStdout},
	{name: "show --topn", args: []string{"show", "--topn=3", "{idx:irfe}"}, compare: sameStdout},
	{name: "show --topn with ties", args: []string{"show", "--topn=4", "{idx:ties}"}, compare: sameStdout},
	{name: "show --detailed-summary", args: []string{"show", "--detailed-summary", "{idx:irfe}"}, compare: sameStdout},
	{name: "show --ic-targets --memop-sizes", args: []string{"show", "--all-functions", "--ic-targets", "--memop-sizes", "--counts", "{idx:vt}"}, compare: sameStdout},
	{name: "show --ic-targets --memop-sizes (IR raws)", args: []string{"show", "--all-functions", "--ic-targets", "--memop-sizes", "{idx:ir19}"}, compare: sameStdout},
	{name: "show CS records hidden", args: []string{"show", "--all-functions", "--counts", "{idx:cs}"}, compare: sameStdout},
	{name: "show --showcs", args: []string{"show", "--showcs", "--all-functions", "--counts", "--detailed-summary", "{idx:cs}"}, compare: sameStdout},
	{name: "show pseudo counts", args: []string{"show", "--all-functions", "--counts", "--topn=2", "{idx:pseudo}"}, compare: sameStdout},
	{name: "show --sample text", args: []string{"show", "--sample", "{sp:inline.txt}"}, compare: sameStdout},
	{name: "show --sample ties", args: []string{"show", "--sample", "{sp:ties.txt}"}, compare: sameStdout},
	{name: "show --sample binary", args: []string{"show", "--sample", "{sp:profgen.binary}"}, compare: sameStdout},
	{name: "show --sample extbinary", args: []string{"show", "--sample", "{sp:profgen.extbinary}"}, compare: sameStdout},
	{name: "show --sample fs discriminators", args: []string{"show", "--sample", "{sp:profgen-fs.extbinary}"}, compare: sameStdout},
	{name: "show --sample pre-inlined", args: []string{"show", "--sample", "{sp:profgen-preinlined.extbinary}"}, compare: sameStdout},
	{name: "show --sample pseudo-probe", args: []string{"show", "--sample", "{sp:profgen-probe.extbinary}"}, compare: sameStdout},
	// Context-sensitive (CSSPGO) flat profiles, issue 12.
	{name: "show --sample CS text", args: []string{"show", "--sample", "{sp:cs/flat.txt}"}, compare: sameStdout},
	{name: "show --sample CS extbinary", args: []string{"show", "--sample", "{sp:cs/flat.extbinary}"}, compare: sameStdout},
	{name: "show --sample CS --function: contexts are not names", args: []string{"show", "--sample", "--function=insert", "{sp:cs/flat.txt}"}, compare: sameStdout},
	{name: "show --sample CS --detailed-summary --topn", args: []string{"show", "--sample", "--detailed-summary", "--topn=3", "{sp:cs/flat.extbinary}"}, llvm: []string{"show", "--sample", "--detailed-summary", "--topn=3", "{sp:cs/flat.extbinary}"}, compare: sameStdout},
	{name: "merge --sample CS extbinary to text", args: []string{"merge", "--sample", "--text", "-o", "{out}", "{sp:cs/flat.extbinary}"}},
	{name: "merge --sample CS text to extbinary", args: []string{"merge", "--sample", "-o", "{out}", "{sp:cs/flat.txt}"}, compare: sameText},
	{name: "merge --sample CS weighted", args: []string{"merge", "--sample", "--text", "-o", "{out}", "--weighted-input=3,{sp:cs/flat.txt}", "{sp:cs/flat.extbinary}"}},
	{name: "show --sample md5", args: []string{"show", "--sample", "{sp:md5.extbinary}"}, compare: sameStdout},
	{name: "show --sample compressed", args: []string{"show", "--sample", "{sp:compressed.extbinary}"}, compare: sameStdout},
	{name: "show --sample --function", args: []string{"show", "--sample", "--function=main", "{sp:inline.txt}"}, compare: sameStdout},
	{name: "show --sample --function missing", args: []string{"show", "--sample", "--function=nosuch", "{sp:inline.txt}"}, compare: sameStdout},
	{name: "show --sample --show-prof-sym-list", args: []string{"show", "--sample", "--show-prof-sym-list", "{sp:symlist.extbinary}"}, compare: sameStdout},
	{name: "show --sample --detailed-summary", args: []string{"show", "--sample", "--detailed-summary", "{sp:profgen.extbinary}"}, llvm: []string{"show", "--sample", "--detailed-summary", "{sp:profgen.extbinary}"}, compare: sameStdout},
	{name: "show --sample of merged overflow", args: []string{"show", "--sample", "{big1.sample.txt}"}, compare: sameStdout},
	{name: "show --covered", args: []string{"show", "--covered", "{idx:irfe}"}, compare: sameStdout},
	{name: "show --value-cutoff", args: []string{"show", "--value-cutoff=10", "--topn=2", "{idx:irfe}"}, compare: sameStdout},
	{name: "show --list-below-cutoff", args: []string{"show", "--value-cutoff=10", "--list-below-cutoff", "{idx:irfe}"}, compare: sameStdout},
	{name: "show --binary-ids --profile-version", args: []string{"show", "--binary-ids", "--profile-version", "{idx:irfe}"}, compare: sameStdout},
	{name: "show --text --all-functions", args: []string{"show", "--text", "--all-functions", "{idx:vt}"}, compare: sameStdout},
	{name: "show --text --function (FE bitmaps)", args: []string{"show", "--text", "--function=t.c", "{idx:fe19}"}, compare: sameStdout},
	{name: "show --show-vtables --ic-targets --memop-sizes", args: []string{"show", "--all-functions", "--show-vtables", "--ic-targets", "--memop-sizes", "{idx:vt}"}, compare: sameStdout},
	{name: "show --show-vtables, IC targets outside the profile", args: []string{"show", "--function=main", "--show-vtables", "--ic-targets", "{idx:irfe}"}, compare: sameStdout},
	{name: "show --ic-targets: unnamed and external targets", args: []string{"show", "--all-functions", "--ic-targets", "--memop-sizes", "--counts", "{idx:values}"}, compare: sameStdout},
	{name: "show --temporal-profile-traces", args: []string{"show", "--temporal-profile-traces", "{idx:temporal}"}, compare: sameStdout},
	{name: "show --temporal-profile-traces, none", args: []string{"show", "--temporal-profile-traces", "{idx:ir19}"}, compare: sameStdout},
	{name: "show --sample --hot-func-list", args: []string{"show", "--sample", "--hot-func-list", "{sp:profgen.extbinary}"}, compare: sameStdout},
	{name: "show --sample --topn", args: []string{"show", "--sample", "--topn=1", "{sp:inline.txt}"}, compare: sameStdout},
	{name: "show --sample --hot-func-list, inlinees", args: []string{"show", "--sample", "--hot-func-list", "{sp:profgen-preinlined.extbinary}"}, compare: sameStdout},
	{name: "show --sample --hot-func-list, text profile", args: []string{"show", "--sample", "--hot-func-list", "{sp:profgen.txt}"}, compare: sameStdout},
	{name: "show --sample --hot-func-list, ties", args: []string{"show", "--sample", "--hot-func-list", "{sp:ties.txt}"}, compare: sameStdout},
	{name: "show --sample --hot-func-list, probes", args: []string{"show", "--sample", "--hot-func-list", "{sp:profgen-probe.extbinary}"}, compare: sameStdout},
	{name: "show --sample --show-sec-info-only", args: []string{"show", "--sample", "--show-sec-info-only", "{sp:profgen.extbinary}"}, compare: sameStdout},
	{name: "show --show-sec-info-only, compressed", args: []string{"show", "--sample", "--show-sec-info-only", "{sp:compressed.extbinary}"}, compare: sameStdout},
	{name: "show --show-sec-info-only, md5", args: []string{"show", "--sample", "--show-sec-info-only", "{sp:md5.extbinary}"}, compare: sameStdout},
	{name: "show --show-sec-info-only, probe", args: []string{"show", "--sample", "--show-sec-info-only", "{sp:profgen-probe.extbinary}"}, compare: sameStdout},
	{name: "show --show-sec-info-only, pre-inlined", args: []string{"show", "--sample", "--show-sec-info-only", "{sp:profgen-preinlined.extbinary}"}, compare: sameStdout},
	{name: "show --show-sec-info-only, fs", args: []string{"show", "--sample", "--show-sec-info-only", "{sp:profgen-fs.extbinary}"}, compare: sameStdout},
	{name: "show --show-sec-info-only, text: warned", args: []string{"show", "--sample", "--show-sec-info-only", "{sp:inline.txt}"}, compare: sameStdout},
	{name: "show --sample --show-format=json", args: []string{"show", "--sample", "--show-format=json", "{sp:inline.txt}"}, compare: sameStdout},
	{name: "show --sample --show-format=json md5 extbinary", args: []string{"show", "--sample", "--show-format=json", "{sp:md5.extbinary}"}, compare: sameStdout},
	{name: "show --sample --show-format=json CS, probes", args: []string{"show", "--sample", "--show-format=json", "--detailed-summary", "{sp:cs/flat.txt}"}, llvm: []string{"show", "--sample", "--show-format=json", "--detailed-summary", "{sp:cs/flat.txt}"}, compare: sameStdout},
	{name: "show --sample --show-format=json gcc", args: []string{"show", "--sample", "--show-format", "json", "{sp:gcc.afdo}"}, compare: sameStdout},
	{name: "show --sample --show-format=json --function refused", args: []string{"show", "--sample", "--show-format=json", "--function=main", "{sp:inline.txt}"}, compare: bothFail},
	{name: "show --show-format=json of instrumentation refused", args: []string{"show", "--show-format=json", "{idx:ir19}"}, compare: bothFail},
	{name: "show --sample --show-format=yaml refused", args: []string{"show", "--sample", "--show-format=yaml", "{sp:inline.txt}"}, compare: bothFail},
	{name: "show --all-functions --function: warned", args: []string{"show", "--all-functions", "--function=main", "-o", "{out}", "{idx:ir19}"}, compare: sameWarnings},
	{name: "show --sample --all-functions --function: warned", args: []string{"show", "--sample", "--all-functions", "--function=main", "-o", "{out}", "{sp:inline.txt}"}, compare: sameWarnings},

	// order (issue 10): llvm-profdata-19 order's balanced partitioning of
	// temporal profile traces.
	// (the first three against llvm-profdata-19 only: docs/llvm22-output.md)
	{name: "order of traces", args: []string{"order", "{order-traces.proftext}"}, compare: sameStdout, tool: "llvm-profdata-19"},
	{name: "order --num-test-traces", args: []string{"order", "--num-test-traces", "1", "{order-traces.proftext}"}, compare: sameStdout, tool: "llvm-profdata-19"},
	{name: "order of a few functions", args: []string{"order", "{order-small.proftext}"}, compare: sameStdout, tool: "llvm-profdata-19"},
	{name: "order of an indexed profile -o", args: []string{"order", "--num-test-traces=1", "-o", "{out}", "{idx:temporal}"}},
	{name: "order of a temporal raw", args: []string{"order", "{temporal1.profraw}"}, compare: sameStdout},
	{name: "order --num-test-traces too large", args: []string{"order", "--num-test-traces=2", "{idx:temporal}"}, compare: bothFail},

	// overlap (issue 10): llvm-profdata-19 overlap's report, instrumentation
	// profiles of every encoding and sample profiles of every format.
	{name: "overlap proftexts", args: []string{"overlap", "{overlap-base.proftext}", "{overlap-test.proftext}"}, compare: sameStdout},
	{name: "overlap --function", args: []string{"overlap", "--function=foo", "{overlap-base.proftext}", "{overlap-test.proftext}"}, compare: sameStdout},
	{name: "overlap --value-cutoff", args: []string{"overlap", "--value-cutoff", "100", "{overlap-base.proftext}", "{overlap-test.proftext}"}, compare: sameStdout},
	{name: "overlap -o", args: []string{"overlap", "--value-cutoff=0", "-o", "{out}", "{overlap-base.proftext}", "{overlap-test.proftext}"}},
	{name: "overlap indexed and proftext", args: []string{"overlap", "--function=o", "{idx:overlap-base}", "{overlap-test.proftext}"}, compare: sameStdout},
	{name: "overlap raws: indirect calls and memops", args: []string{"overlap", "--value-cutoff=0", "{raw:ir19-1}", "{raw:ir19-2}"}, compare: sameStdout},
	{name: "overlap raws: vtables", args: []string{"overlap", "--value-cutoff=0", "{raw:vt1}", "{raw:vt2}"}, compare: sameStdout},
	{name: "overlap IR and FE raws", args: []string{"overlap", "--value-cutoff=0", "{raw:ir19-1}", "{raw:fe19}"}, compare: sameStdout},
	{name: "overlap --cs", args: []string{"overlap", "--cs", "--value-cutoff=0", "{idx:cs}", "{raw:cs}"}, compare: sameStdout},
	{name: "overlap indexed and raw, CS records counted apart", args: []string{"overlap", "--function=main", "{idx:cs}", "{raw:ir19-1}"}, compare: sameStdout},
	{name: "overlap --sample on a .proftext", args: []string{"overlap", "--sample", "{overlap-base.sample.txt}", "{overlap-base.proftext}"}, compare: bothFail},
	{name: "overlap --sample text", args: []string{"overlap", "--sample", "{overlap-base.sample.txt}", "{overlap-test.sample.txt}"}, compare: sameStdout},
	{name: "overlap --sample --value-cutoff: ties in llvm's map order", args: []string{"overlap", "--sample", "--value-cutoff=1", "{overlap-base.sample.txt}", "{overlap-test.sample.txt}"}, compare: sameStdout},
	{name: "overlap --sample --function", args: []string{"overlap", "--sample", "--function=main", "{overlap-base.sample.txt}", "{overlap-test.sample.txt}"}, compare: sameStdout},
	{name: "overlap --sample --similarity-cutoff", args: []string{"overlap", "--sample", "--similarity-cutoff=900000", "{overlap-base.sample.txt}", "{overlap-test.sample.txt}"}, compare: sameStdout},
	{name: "overlap --sample -o", args: []string{"overlap", "--sample", "--value-cutoff=0", "-o", "{out}", "{overlap-test.sample.txt}", "{overlap-base.sample.txt}"}},
	{name: "overlap --sample extbinary and text", args: []string{"overlap", "--sample", "--value-cutoff=0", "{sp:profgen.extbinary}", "{sp:profgen.txt}"}, compare: sameStdout},
	{name: "overlap --sample binary and gcc", args: []string{"overlap", "--sample", "--value-cutoff=0", "{sp:profgen.binary}", "{sp:inline.txt}"}, compare: sameStdout},
	{name: "overlap --sample text and gcc", args: []string{"overlap", "--sample", "--function=main", "{sp:inline.txt}", "{sp:gcc.afdo}"}, compare: sameStdout},
	{name: "overlap --sample md5 names", args: []string{"overlap", "--sample", "--value-cutoff=0", "{sp:md5.extbinary}", "{sp:profgen.md5.extbinary}"}, compare: sameStdout},
	{name: "overlap --sample pseudo-probe", args: []string{"overlap", "--sample", "--value-cutoff=0", "{overlap-probe-base.sample.txt}", "{overlap-probe-test.sample.txt}"}, compare: sameStdout},
	{name: "overlap --sample CS", args: []string{"overlap", "--sample", "{sp:cs/flat.txt}", "{sp:cs/flat.extbinary}"}, compare: sameStdout},
	{name: "overlap --sample probe and plain", args: []string{"overlap", "--sample", "{overlap-probe-base.sample.txt}", "{overlap-test.sample.txt}"}, compare: bothFail},
	{name: "overlap --sample CS and plain", args: []string{"overlap", "--sample", "{sp:cs/flat.txt}", "{overlap-test.sample.txt}"}, compare: bothFail},
	{name: "overlap --sample, no samples", args: []string{"overlap", "--sample", "{overlap-base.sample.txt}", "{zero.sample.txt}"}, compare: sameStdout},
	{name: "show -o", args: []string{"show", "--all-functions", "-o", "{out}", "{idx:ir19}"}},
	{name: "show --sample on .profdata", args: []string{"show", "--sample", "{idx:ir19}"}, compare: bothFail},

	// Issue 26: llvm-profdata-22's show, overlap and merge --text (against
	// llvm-profdata-19 through --llvm-version=19). loop22*.profraw are
	// clang-22 raws with the loop-entries variant bit (testdata/parity/README),
	// which llvm-profdata-19 ignores and whose text header it refuses: those
	// rows run against llvm-profdata-22 only.
	// show: the summary of ProfileSummary::printSummary (blocks and total
	// count always), the value-cutoff counts after it, the detailed
	// summary's block shares, instrument_loop_entries.
	{name: "show --ic-targets --memop-sizes --detailed-summary", args: []string{"show", "--all-functions", "--ic-targets", "--memop-sizes", "--show-vtables", "--detailed-summary", "{idx:vt}"}, compare: sameStdout},
	{name: "show raw --profile-version of a temporal raw", args: []string{"show", "--profile-version", "{temporal1.profraw}"}, compare: sameStdout},

	// --topn sorts every function, ties in reading order; --hot-func-list
	// (LLVM 21) lists instrumentation profiles' hot functions too.
	{name: "show --topn of a proftext with ties", args: []string{"show", "--topn=2", "{ties.proftext}"}, compare: sameStdout},
	{name: "show --hot-func-list", args: []string{"show", "--hot-func-list", "{idx:irfe}"}, compare: sameStdout},
	{name: "show --hot-func-list --topn with ties", args: []string{"show", "--hot-func-list", "--topn=2", "--detailed-summary", "{ties.proftext}"}, compare: sameStdout},

	// The loop-entries variant (raw bit 55, :instrument_loop_entries).
	{name: "show loop-entries raw", args: []string{"show", "--all-functions", "--counts", "{loop22.profraw}"}, compare: sameStdout},
	{name: "show entry-first loop-entries raw", args: []string{"show", "--detailed-summary", "{loop22e.profraw}"}, compare: sameStdout},
	{name: "show loop-entries proftext", args: []string{"show", "--all-functions", "{loop22e.proftext}"}, compare: sameStdout, tool: "llvm-profdata-22"},
	{name: "show --text of a loop-entries raw", args: []string{"show", "--text", "--all-functions", "{loop22.profraw}"}, compare: sameStdout},
	{name: "merge --text of a loop-entries raw", args: []string{"merge", "--text", "-o", "{out}", "{loop22e.profraw}"}, tool: "llvm-profdata-22"},
	{name: "merge --text of a loop-entries proftext", args: []string{"merge", "--text", "-o", "{out}", "{loop22e.proftext}"}, tool: "llvm-profdata-22"},
	{name: "merge --text of loop-entries and plain raws", args: []string{"merge", "--text", "-o", "{out}", "{plain22.profraw}", "{loop22.profraw}"}, tool: "llvm-profdata-22"},

	// --keep-vtable-symbols: the indexed vtable names section (a zlib names
	// chunk: other bytes than llvm's, the same names, so compared through
	// show, which resolves vtable values by them).
	{name: "merge --keep-vtable-symbols of raws", args: []string{"merge", "--keep-vtable-symbols", "-o", "{out}", "{raw:vt1}", "{raw:vt2}"}, compare: sameShow},
	{name: "merge --keep-vtable-symbols of an indexed input", args: []string{"merge", "--keep-vtable-symbols", "-o", "{out}", "{idx:vtkeep}", "{raw:ir19-1}"}, compare: sameShow},
	{name: "merge --keep-vtable-symbols, no vtables", args: []string{"merge", "--keep-vtable-symbols", "-o", "{out}", "{raw:ir19-1}"}},
	{name: "merge drops an indexed input's vtable names", args: []string{"merge", "-o", "{out}", "{idx:vtkeep}"}},
	// --supplement-instr-with-sample (hand-written inputs: testdata/parity/README).
	{name: "supplement: min size 0", args: []string{"merge", "--supplement-instr-with-sample={supp-samples.txt}", "--suppl-min-size-threshold=0", "-o", "{out}", "{supp-instr.proftext}"}},
	{name: "supplement: defaults", args: []string{"merge", "--supplement-instr-with-sample={supp-samples.txt}", "-o", "{out}", "{supp-instr.proftext}"}},
	{name: "supplement: zero counter threshold 0.5, cold threshold 30", args: []string{"merge", "--supplement-instr-with-sample={supp-samples.txt}", "--suppl-min-size-threshold=0", "--zero-counter-threshold=0.5", "--instr-prof-cold-threshold=30", "-o", "{out}", "{supp-instr.proftext}"}},
	{name: "supplement: cold threshold 5000, scaled", args: []string{"merge", "--supplement-instr-with-sample={supp-samples.txt}", "--suppl-min-size-threshold=0", "--instr-prof-cold-threshold=5000", "-o", "{out}", "{supp-instr.proftext}"}},
	{name: "supplement: small functions, a static name of two files: warned", args: []string{"merge", "--supplement-instr-with-sample={supp-samples.txt}", "--suppl-min-size-threshold=2", "--instr-prof-cold-threshold=30", "-o", "{out}", "{supp-instr-small.proftext}"}, compare: sameWarnings},
	{name: "supplement: unique-linkage suffix in the samples", args: []string{"merge", "--supplement-instr-with-sample={supp-uniq-samples.txt}", "--suppl-min-size-threshold=0", "-o", "{out}", "{supp-instr.proftext}"}},
	{name: "supplement: unique-linkage suffix in the instr profile", args: []string{"merge", "--supplement-instr-with-sample={supp-plain-samples.txt}", "--suppl-min-size-threshold=0", "-o", "{out}", "{supp-uniq-instr.proftext}"}},
	{name: "supplement: raw input, text output, sparse", args: []string{"merge", "--supplement-instr-with-sample={supp-plain-samples.txt}", "--suppl-min-size-threshold=0", "--text", "--sparse", "-o", "{out}", "{raw:ir19-1}"}},
	{name: "supplement: to stdout refused", args: []string{"merge", "--supplement-instr-with-sample={supp-samples.txt}", "-o", "-", "{supp-instr.proftext}"}, compare: bothFail},
	{name: "supplement: two inputs refused", args: []string{"merge", "--supplement-instr-with-sample={supp-samples.txt}", "-o", "{out}", "{supp-instr.proftext}", "{supp-instr-small.proftext}"}, compare: bothFail},
	{name: "supplement: weighted input refused", args: []string{"merge", "--supplement-instr-with-sample={supp-samples.txt}", "-o", "{out}", "--weighted-input=2,{supp-instr.proftext}"}, compare: bothFail},
	{name: "supplement: --sample refused", args: []string{"merge", "--sample", "--supplement-instr-with-sample={supp-samples.txt}", "-o", "{out}", "{supp-instr.proftext}"}, compare: bothFail},
	{name: "show --show-vtables of an indexed profile with vtable names", args: []string{"show", "--all-functions", "--show-vtables", "--ic-targets", "{idx:vtkeep}"}, compare: sameStdout},

	// Issue 34: .proftext header words in any case and :not_entry_first;
	// value profiles in the comment style of LLVM's overlap_*_vp inputs.
	{name: "proftext :IR with value profiles", args: []string{"merge", "-o", "{out}", "{vp-upper-base.proftext}"}},
	{name: "proftext :IR and :Ir merged", args: []string{"merge", "-o", "{out}", "{vp-upper-base.proftext}", "{vp-upper-test.proftext}"}},
	{name: "proftext :IR merged to text", args: []string{"merge", "--text", "-o", "{out}", "{vp-upper-test.proftext}", "{vp-upper-base.proftext}"}},
	{name: "show of a :IR proftext with value sites", args: []string{"show", "--all-functions", "--counts", "--ic-targets", "--memop-sizes", "{vp-upper-base.proftext}"}, compare: sameStdout},
	{name: "overlap of :IR proftexts with value profiles", args: []string{"overlap", "{vp-upper-base.proftext}", "{vp-upper-test.proftext}"}, compare: sameStdout},
	{name: "overlap --value-cutoff=0 of their indexed profiles", args: []string{"overlap", "--value-cutoff=0", "{idx:vp-upper-base}", "{idx:vp-upper-test}"}, compare: sameStdout},
	{name: "proftext header words in mixed case, entry_first cleared", args: []string{"merge", "-o", "{out}", "{header-words.proftext}"}},
	{name: "show of mixed-case header words", args: []string{"show", "--showcs", "--all-functions", "--counts", "{header-words.proftext}"}, compare: sameStdout},
	{name: "proftext header word after a space refused", args: []string{"merge", "-o", "{out}", "{header-space.proftext}"}, compare: bothFail},
	{name: "proftext value kind listed twice: sites appended", args: []string{"merge", "--text", "-o", "{out}", "{kind-twice.proftext}"}},
	// Counts beyond 2^64 in sum: llvm's uint64_t total wraps around, and
	// --hot-func-list's shares follow it (profgen's own show report sums
	// in 128 bits).
	{name: "show --sample --hot-func-list of counts summing past 2^64", args: []string{"show", "--sample", "--hot-func-list", "{overflow.sample.txt}"}, compare: sameStdout},
	{name: "show --sample --hot-func-list --topn=1, ties in llvm's map order", args: []string{"show", "--sample", "--hot-func-list", "--topn=1", "{overflow.sample.txt}"}, compare: sameStdout},
	{name: "show --sample --hot-func-list ties", args: []string{"show", "--sample", "--hot-func-list", "{sp:ties.txt}"}, compare: sameStdout},
	{name: "show --sample --detailed-summary of counts summing past 2^64", args: []string{"show", "--sample", "--detailed-summary", "{overflow.sample.txt}"}, compare: sameStdout},
	// show --function --counts (Block counts:) of LLVM 3.7's text format.
	{name: "show --function --counts of a one-counter front-end record", args: []string{"show", "--function=count_only", "--counts", "{legacy.proftext}"}, compare: sameStdout},
	{name: "show --function --counts of a name with spaces", args: []string{"show", "--function", "name with spaces", "--counts", "{legacy.proftext}"}, compare: sameStdout},
	{name: "show --function --counts --detailed-summary of large counts", args: []string{"show", "--function=large", "--counts", "--detailed-summary", "{legacy.proftext}"}, compare: sameStdout},
	{name: "merge --text of LLVM 3.7's text format", args: []string{"merge", "--text", "-o", "{out}", "{legacy.proftext}"}},
	// Raws of versions 8 and 9, which llvm-profdata 19 and 22 refuse:
	// profgen gives what llvm makes of the same profile in version 10.
	{name: "raw version 9 (clang 18): as llvm merges its version 10", args: []string{"merge", "-o", "{out}", "{rawv:le64v9}"},
		llvm: []string{"merge", "-o", "{out}", "{rawv:le64}"}},
	{name: "raw version 9, 32-bit big-endian", args: []string{"merge", "-o", "{out}", "{rawv:be32v9}"},
		llvm: []string{"merge", "-o", "{out}", "{rawv:be32}"}},
	{name: "raw version 8 (clang 14 to 17): as llvm merges its version 10", args: []string{"merge", "-o", "{out}", "{rawv:le64v8}", "{rawv:le64v9}"},
		llvm: []string{"merge", "-o", "{out}", "{rawv:le64}", "{rawv:le64}"}},
	{name: "show of a raw of version 9", args: []string{"show", "--all-functions", "--counts", "--ic-targets", "{rawv:le64v9}"},
		llvm: []string{"show", "--all-functions", "--counts", "--ic-targets", "{rawv:le64}"}, compare: sameStdout},
	{name: "raws of versions 8 and 9 refused by llvm", args: []string{"merge", "-o", "{out}", "{rawv:le64v9}"}, llvm: []string{"merge", "-o", "{out}", "{rawv:le64v8}", "{rawv:le64v9}"}, compare: profgenOnly},
}

// nestRow merges sample profiles with --convert-sample-profile-layout=nest
// and more flags.
func nestRow(args ...string) []string {
	return append([]string{"merge", "--sample", "--convert-sample-profile-layout=nest", "-o", "{out}"}, args...)
}

// reference is a release of llvm-profdata the parity table runs against,
// and the flags that make profgen write what that release writes.
type reference struct {
	tool string
	// flags are added to profgen's merge arguments.
	flags []string
	// textFlags are added to profgen's show and overlap arguments.
	textFlags []string
}

// references are the releases compared: LLVM 22, the primary one, and 19,
// whose indexed version profgen writes with --output-version=12 and whose
// show and overlap text with --llvm-version=19.
var references = []reference{
	{tool: "llvm-profdata-22"},
	{tool: "llvm-profdata-19", flags: []string{"--output-version=12"}, textFlags: []string{"--llvm-version=19"}},
}

// profgenArgs are a row's arguments for profgen against ref: a merge gets
// ref's flags (a text output ignores them), show and overlap its textFlags.
func (ref reference) profgenArgs(args []string) []string {
	if len(args) == 0 {
		return args
	}
	flags := ref.textFlags
	switch {
	case args[0] == "merge" && !slices.ContainsFunc(args, func(a string) bool { return strings.HasPrefix(a, "--output-version") }):
		flags = ref.flags
	case args[0] != "show" && args[0] != "overlap":
		return args
	}
	return append(append([]string{args[0]}, flags...), args[1:]...)
}

func TestParityWithLLVMProfdata(t *testing.T) {
	for _, ref := range references {
		t.Run(ref.tool, func(t *testing.T) {
			needTool(t, ref.tool, inputTool)
			pass, rows := 0, 0
			for _, row := range slices.Concat(parityTable, correlationRows) {
				if row.tool != "" && ref.tool != references[0].tool {
					continue // a row of another release runs once
				}
				if ref.tool == "llvm-profdata-22" && isSampleRow(row) {
					continue // TestParitySampleWithLLVMProfdata22 runs them against 22
				}
				rows++
				if t.Run(row.name, func(t *testing.T) { checkParity(t, row, ref) }) {
					pass++
				}
			}
			t.Logf("parity table against %s: %d of %d rows pass", ref.tool, pass, rows)
		})
	}
}

func checkParity(t *testing.T, row parityRow, ref reference) {
	tool := ref.tool
	if row.tool != "" {
		needTool(t, row.tool)
		tool = row.tool
	}
	dir := t.TempDir()
	ours, theirs := filepath.Join(dir, "ours"), filepath.Join(dir, "theirs")
	llvmArgs := row.llvm
	if llvmArgs == nil {
		llvmArgs = row.args
	}
	args := row.args
	if row.tool == "" {
		args = ref.profgenArgs(args)
	}
	for _, kv := range expandArgs(t, row.env, ours) {
		name, value, _ := strings.Cut(kv, "=")
		t.Setenv(name, value)
	}
	oOut, oErr, err := runInProcess(expandArgs(t, args, ours))
	lOut, lErr, lerr := runRefEnv(tool, expandArgs(t, llvmArgs, theirs), expandArgs(t, row.env, theirs))
	switch row.compare {
	case bothFail:
		checkBothFail(t, err, lerr, ours, tool)
		return
	case profgenOnly:
		if lerr == nil || err != nil {
			t.Errorf("want %s to fail and profgen to succeed: %v, %v\n%s", tool, lerr, err, oErr)
		}
		return
	}
	if err != nil || lerr != nil {
		t.Fatalf("profgen: %v\n%s\n%s: %v\n%s", err, oErr, tool, lerr, lErr)
	}
	compareOutputs(t, row.compare, tool, [2]string{ours, theirs}, [2]string{oOut, lOut}, [2]string{oErr, lErr})
}

// compareOutputs compares profgen's files, stdout and stderr (index 0)
// with tool's (index 1) as c says.
func compareOutputs(t *testing.T, c compareMode, tool string, files, stdout, stderr [2]string) {
	t.Helper()
	switch c {
	case sameBytes, sameWarnings, sameMessages:
		compareFiles(t, files[0], files[1])
	case sameText:
		if a, b := llvmRender(t, files[0]), llvmRender(t, files[1]); a != b {
			t.Errorf("%s renders them differently:\n%s\n---\n%s", renderTool, a, b)
		}
	case sameShow:
		if a, b := llvmShow(t, files[0]), llvmShow(t, files[1]); a != b {
			t.Errorf("%s show prints them differently:\n%s\n---\n%s", renderTool, a, b)
		}
	case sameStdout:
		if stdout[0] != stdout[1] {
			t.Errorf("stdout differs:\n%s\n--- %s:\n%s", stdout[0], tool, stdout[1])
		}
	case sameMemStdout:
		if a, b := histogramAddrs.ReplaceAllString(stdout[0], "$1"), histogramAddrs.ReplaceAllString(stdout[1], "$1"); a != b {
			t.Errorf("stdout differs:\n%s\n--- %s:\n%s", a, tool, b)
		}
	}
	if c == sameMessages && messages(stderr[0]) != messages(stderr[1]) {
		t.Errorf("messages differ:\n%s\n--- %s:\n%s", messages(stderr[0]), tool, messages(stderr[1]))
	}
	if c == sameWarnings && warnings(stderr[0]) != warnings(stderr[1]) {
		t.Errorf("warnings differ:\n%s\n--- %s:\n%s", warnings(stderr[0]), tool, warnings(stderr[1]))
	}
}

func checkBothFail(t *testing.T, ours, theirs error, out, tool string) {
	t.Helper()
	if theirs == nil {
		t.Fatalf("%s succeeded: the row is wrong", tool)
	}
	if ours == nil {
		t.Fatalf("profgen succeeded where %s fails", tool)
	}
	if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("profgen left %s behind", out)
	}
}

func compareFiles(t *testing.T, ours, theirs string) {
	t.Helper()
	if !bytes.Equal(readFile(t, ours), readFile(t, theirs)) {
		t.Errorf("output differs from llvm-profdata's:\n%s\n---\n%s", llvmRender(t, ours), llvmRender(t, theirs))
	}
}

// expandArgs replaces {out} by out and {name} by the input's path,
// anywhere in an argument (--weighted-input=3,{raw:ir19-1}).
func expandArgs(t *testing.T, args []string, out string) []string {
	res := make([]string, len(args))
	for i, a := range args {
		res[i] = placeholder.ReplaceAllStringFunc(a, func(m string) string { return inputPath(t, m[1:len(m)-1], out) })
	}
	return res
}

var placeholder = regexp.MustCompile(`\{[^}]+\}`)

func inputPath(t *testing.T, name, out string) string {
	if name == "out" {
		return out
	}
	if raw, ok := strings.CutPrefix(name, "raw:"); ok {
		return rawPath(raw)
	}
	if sp, ok := strings.CutPrefix(name, "sp:"); ok {
		return "../../internal/sampleprof/testdata/" + sp
	}
	if idx, ok := strings.CutPrefix(name, "idx:"); ok {
		return madeInput(t, idx, "profdata")
	}
	if txt, ok := strings.CutPrefix(name, "txt:"); ok {
		return madeInput(t, txt, "proftext")
	}
	if v, ok := strings.CutPrefix(name, "rawv:"); ok {
		return rawVariantFile(t, v)
	}
	if c, ok := strings.CutPrefix(name, "built:"); ok {
		return builtPath(t, c)
	}
	if old, ok := strings.CutPrefix(name, "old:"); ok {
		v, _ := strconv.Atoi(old)
		return oldIndexedFile(t, v)
	}
	return "testdata/parity/" + name
}

// madeInput is llvm-profdata-19's indexed (ext "profdata") or text (ext
// "proftext") profile of testdata/parity/NAME.proftext or of the raws
// indexedFrom lists, made once per test run.
func madeInput(t *testing.T, name, ext string) string {
	indexedOnce.Do(func() { indexedDir, _ = os.MkdirTemp("", "parity") })
	path := filepath.Join(indexedDir, name+"."+ext)
	if _, err := os.Stat(path); err == nil {
		return path
	}
	inputs := indexedFrom[name]
	if inputs == nil {
		inputs = []string{"testdata/parity/" + name + ".proftext"}
	}
	args := append([]string{"merge", "-o", path}, indexedFlags[name]...)
	if ext == "proftext" {
		args = append(args, "--text")
	}
	if _, stderr, err := runLLVMProfdata(append(args, inputs...)); err != nil {
		t.Fatalf("llvm-profdata-19 merge %v: %v\n%s", inputs, err, stderr)
	}
	return path
}

// indexedFrom lists the raws of the indexed inputs llvm-profdata-19 makes
// from raws rather than from a .proftext.
var indexedFrom = map[string][]string{
	"vt":       {rawPath("vt1"), rawPath("vt2")},
	"ir19":     {rawPath("ir19-1"), rawPath("ir19-2")},
	"irfe":     {rawPath("ir19-1"), rawPath("ir19-2"), rawPath("fe19")},
	"fe19":     {rawPath("fe19")},
	"cs":       {rawPath("cs"), rawPath("ir19-1")},
	"ir19p":    {rawPath("ir19-1"), rawPath("plain19")},
	"sb":       {rawPath("sb1"), rawPath("sb2")},
	"temporal": {"testdata/parity/temporal1.profraw", "testdata/parity/temporal2.profraw"},
	"vtkeep":   {rawPath("vt1"), rawPath("vt2")},
}

// indexedFlags are llvm-profdata-19's flags for an input of indexedFrom.
var indexedFlags = map[string][]string{"vtkeep": {"--keep-vtable-symbols"}}

func rawPath(name string) string { return "../../internal/instrprof/testdata/" + name + ".profraw" }

var (
	indexedOnce sync.Once
	indexedDir  string
)

// runInProcess runs profgen in-process as main does, LLVM-style arguments
// included.
func runInProcess(args []string) (stdout, stderr string, err error) {
	cmd := newRootCommand()
	var o, e bytes.Buffer
	cmd.SetOut(&o)
	cmd.SetErr(&e)
	cmd.SetArgs(llvmStyleArgs(args))
	err = cmd.Execute()
	return o.String(), e.String(), err
}

func runLLVMProfdata(args []string) (stdout, stderr string, err error) {
	return runRef(inputTool, args)
}

// inputTool makes the parity table's indexed and text inputs: version 12,
// which every release compared reads.
const inputTool = "llvm-profdata-19"

// renderTool renders profiles as text: LLVM 22 reads every version.
const renderTool = "llvm-profdata-22"

// runRef runs tool.
func runRef(tool string, args []string) (stdout, stderr string, err error) {
	return runRefEnv(tool, args, nil)
}

// runRefEnv runs tool with env (NAME=VALUE) added to the environment.
func runRefEnv(tool string, args, env []string) (stdout, stderr string, err error) {
	var o, e bytes.Buffer
	cmd := exec.Command(tool, args...)
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdout, cmd.Stderr = &o, &e
	err = cmd.Run()
	return o.String(), e.String(), err
}

// llvmRender is llvm-profdata-19's text of a profile, sample or instr.
func llvmRender(t *testing.T, path string) string {
	t.Helper()
	for _, kind := range []string{"--instr", "--sample"} {
		out, _, err := runRef(renderTool, []string{"merge", kind, "--text", "-o", "-", path})
		if err == nil {
			return out
		}
	}
	t.Fatalf("%s cannot read %s", renderTool, path)
	return ""
}

// llvmShow is llvm-profdata-22's show of an instrumentation profile with
// its value sites, vtable names resolved.
func llvmShow(t *testing.T, path string) string {
	t.Helper()
	out, stderr, err := runRef(renderTool, []string{"show", "--all-functions", "--counts", "--ic-targets", "--show-vtables", path})
	if err != nil {
		t.Fatalf("%s show %s: %v\n%s", renderTool, path, err, stderr)
	}
	return out
}

// messages are the per-function messages of a merge (counter overflow,
// counter mismatch) as sorted, deduplicated "function: message" lines: llvm
// names the file of each record, profgen the first file of each shape.
func messages(stderr string) string {
	seen := map[string]bool{}
	var out []string
	for _, l := range strings.Split(stderr, "\n") {
		l = strings.TrimPrefix(l, "profgen merge: warning: ")
		if !strings.HasSuffix(l, "overflow") && !strings.HasSuffix(l, "mismatch)") {
			continue
		}
		f := strings.Split(l, ": ")
		if m := strings.Join(f[max(0, len(f)-2):], ": "); !seen[m] {
			seen[m] = true
			out = append(out, m)
		}
	}
	sort.Strings(out)
	return strings.Join(out, "\n")
}

// warnings keeps the lines that hold "warning:", from "warning:" on.
func warnings(stderr string) string {
	var out []string
	for _, l := range strings.Split(stderr, "\n") {
		if i := strings.Index(l, "warning:"); i >= 0 {
			out = append(out, l[i:])
		}
	}
	return strings.Join(out, "\n")
}

// TestMismatchDeterministic: inputs whose records of main disagree in
// shape give, in every input order and for -j1 to -j3 (run repeatedly),
// exactly llvm-profdata-19 -j=1's file for that order: the first input's
// shape is kept.
// TestMismatchDeterministic merges records of one name and hash with
// other shapes in every order and with -j 1 to 4: one output, the one
// llvm-profdata -j=1 gives when the largest shape comes first.
func TestMismatchDeterministic(t *testing.T) {
	for _, ref := range references {
		t.Run(ref.tool, func(t *testing.T) {
			needTool(t, ref.tool, inputTool)
			checkMismatchDeterministic(t, ref)
		})
	}
}

func checkMismatchDeterministic(t *testing.T, ref reference) {
	inputs := []string{"{raw:ir19-1}", "{idx:main2}", "{raw:ir19-2}", "{idx:real}"}
	llvm := map[string]bool{}
	var ours []byte
	for _, order := range [][]int{{0, 1, 2, 3}, {1, 0, 2, 3}, {2, 1, 0, 3}, {3, 2, 1, 0}, {1, 3, 2, 0}} {
		in := ordered(inputs, order)
		want := filepath.Join(t.TempDir(), "llvm")
		if _, stderr, err := runRef(ref.tool, expandArgs(t, append([]string{"merge", "-j=1", "-o", want}, in...), "")); err != nil {
			t.Fatalf("%s: %v\n%s", ref.tool, err, stderr)
		}
		llvm[string(readFile(t, want))] = true
		for j := 1; j <= 4; j++ {
			got := filepath.Join(t.TempDir(), "ours")
			args := ref.profgenArgs(append([]string{"merge", "-j" + strconv.Itoa(j), "-o", got}, in...))
			if _, stderr, err := runInProcess(expandArgs(t, args, "")); err != nil {
				t.Fatalf("%v\n%s", err, stderr)
			}
			if b := readFile(t, got); ours == nil {
				ours = b
			} else if !bytes.Equal(b, ours) {
				t.Fatalf("order %v, -j%d: differs from the first order's output", order, j)
			}
		}
	}
	if len(llvm) < 2 {
		t.Errorf("%s gave one output in every order: the inputs do not mismatch", ref.tool)
	}
	if !llvm[string(ours)] {
		t.Errorf("profgen's output is none of %s's", ref.tool)
	}
}

// ordered lists inputs in order.
func ordered(inputs []string, order []int) []string {
	var in []string
	for _, i := range order {
		in = append(in, inputs[i])
	}
	return in
}

// TestOutputVersionClang14: clang-14 -fprofile-use reads profgen's
// --output-version=7 merge of clang-14 raws (every function profiled and
// up to date) and refuses the default version 12, as the summary says.
func TestOutputVersionClang14(t *testing.T) {
	needTool(t, "clang-14")
	dir := t.TempDir()
	v7, v12 := filepath.Join(dir, "v7.profdata"), filepath.Join(dir, "v12.profdata")
	for _, args := range [][]string{{"merge", "--output-version=7", "-o", v7, rawPath("ir14")}, {"merge", "-o", v12, rawPath("ir14")}} {
		if _, stderr, err := runInProcess(args); err != nil {
			t.Fatalf("%v\n%s", err, stderr)
		}
	}
	compile := func(prof string) error {
		return exec.Command("clang-14", "-O1", "-fprofile-use="+prof, "-Werror=profile-instr-out-of-date",
			"-Werror=profile-instr-unprofiled", "-c", "-o", filepath.Join(dir, "t.o"), "../../internal/instrprof/testdata/t.c").Run()
	}
	if err := compile(v7); err != nil {
		t.Errorf("clang-14 cannot use the version 7 profile: %v", err)
	}
	if compile(v12) == nil {
		t.Error("clang-14 read version 12: the summary's reader list is wrong")
	}
}

// TestHelpTexts: every command's --help is free of NUL bytes and lists
// llvm-profdata's flags that profgen takes.
func TestHelpTexts(t *testing.T) {
	tests := []struct {
		cmd   []string
		flags []string
	}{
		{[]string{"--help"}, []string{"--version", "--profile-summary-cold-count uint", "--profile-summary-hot-count uint",
			"--profile-summary-contextless", "--use-offset", "(default true)", "--use-first-loadable-segment-as-base", "--perf-event",
			"--sample-period uint", "(default 1)", "--leading-ip-only", "--fill-zero-for-all-funcs", "--populate-profile-symbol-list",
			"--update-total-samples", "--show-density", "--profile-density-threshold float", "(default 50)",
			"--profile-density-cutoff-hot int", "(default 990000)", "--show-mmap-events", "--show-detailed-warning",
			"--show-disassembly-only", "--show-source-locations", "--show-canonical-fname", "--disassemble-functions", "--llvm-sample-profile", "--dwp",
			"--load-function-from-symbol", "--kernel", "--time-profgen", "--generate-merged-base-profiles", "--x86-asm-syntax string", `(default "att")`,
			"--propeller-cc-version string", "--propeller-edges"}},
		{[]string{"merge", "--help"}, []string{"--binary ", "--binary-file", "--compress-all-sections", "--extbinary", "--failure-mode string",
			"--function", "--gcc", "--gen-partial-profile", "--input-files", "--instr", "--match-binary-id", "--no-function",
			"--num-threads", "--output-version", "--prof-sym-list", "--drop-profile-symbol-list", "--sample", "--sparse",
			"--split-layout", "--text", "--use-md5", "--generate-merged-base-profiles", "--version", "--weighted-input", "--convert-sample-profile-layout", "--profile-isfs", "(default 0: autodetect)", `(default "any")`,
			"--gcov-version uint32", "(default 2)", "--gcc-fold-discriminators",
			"--debug-info", "--correlate", "--debug-file-directory", "--debuginfod", "--max-debug-info-correlation-warnings int", "--keep-vtable-symbols",
			"--output-size-limit uint", "--sample-merge-cold-context", "--sample-trim-cold-context", "--sample-frame-depth-for-cold-context uint", "(default 1)",
			"--supplement-instr-with-sample", "--zero-counter-threshold float", "(default 0.7)", "--instr-prof-cold-threshold uint", "--suppl-min-size-threshold uint", "(default 10)"}},
		{[]string{"show", "--help"}, []string{"--all-functions", "--counts", "--detailed-summary", "--function", "--ic-targets",
			"--instr", "--memop-sizes", "--output", "--sample", "--show-prof-sym-list", "--show-sec-info-only", "--showcs", "--topn", "--json", "--top ", "--show-format string", "--version",
			"--debug-info", "--max-debug-info-correlation-warnings int"}},
		{[]string{"order", "--help"}, []string{"--num-test-traces uint", "--output", "--version"}},
		{[]string{"overlap", "--help"}, []string{"--cs", "--function", "--instr", "--sample", "--output", "--similarity-cutoff uint",
			"--value-cutoff uint", "(default 18446744073709551615)", "--version"}},
	}
	for _, tt := range tests {
		out, _, err := runInProcess(tt.cmd)
		if err != nil {
			t.Fatalf("%v: %v", tt.cmd, err)
		}
		if strings.ContainsRune(out, 0) {
			t.Errorf("%v: help holds a NUL byte", tt.cmd)
		}
		for _, f := range tt.flags {
			if !strings.Contains(out, f) {
				t.Errorf("%v: help lacks %q", tt.cmd, f)
			}
		}
	}
}

// TestWeightedValuesMatchLLVM: with weights, a value a later file brings
// into a function counts unscaled in llvm-profdata; profgen gives
// llvm-profdata-19 -j=1's file for every input order, at -j1 to -j3.
func TestWeightedValuesMatchLLVM(t *testing.T) {
	for _, ref := range references {
		t.Run(ref.tool, func(t *testing.T) {
			needTool(t, ref.tool, inputTool)
			checkWeightedValues(t, ref)
		})
	}
}

func checkWeightedValues(t *testing.T, ref reference) {
	inputs := []string{"3,{raw:ir19-1}", "1,{raw:ir19-2}", "5,{temporal1.profraw}", "2,{idx:values}", "4,{values.proftext}"}
	for i := range inputs {
		inputs[i] = "--weighted-input=" + inputs[i]
	}
	for _, order := range [][]int{{0, 1, 2, 3, 4}, {1, 0, 2, 4, 3}, {2, 1, 0, 3, 4}, {4, 3, 2, 1, 0}} {
		in := ordered(inputs, order)
		want := filepath.Join(t.TempDir(), "llvm")
		if _, stderr, err := runRef(ref.tool, expandArgs(t, append([]string{"merge", "-j=1", "-o", want}, in...), "")); err != nil {
			t.Fatalf("%s: %v\n%s", ref.tool, err, stderr)
		}
		for j := 1; j <= 3; j++ {
			got := filepath.Join(t.TempDir(), "ours")
			args := ref.profgenArgs(append([]string{"merge", "-j" + strconv.Itoa(j), "-o", got}, in...))
			if _, stderr, err := runInProcess(expandArgs(t, args, "")); err != nil {
				t.Fatalf("%v\n%s", err, stderr)
			}
			if !bytes.Equal(readFile(t, got), readFile(t, want)) {
				t.Errorf("order %v, -j%d: differs from %s -j=1", order, j, ref.tool)
			}
		}
	}
}
