package driver

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/profgen/profgen/internal/aggregate"
	"github.com/profgen/profgen/internal/atomicfile"
	"github.com/profgen/profgen/internal/csprofile"
	"github.com/profgen/profgen/internal/generate"
	"github.com/profgen/profgen/internal/sampleprof"
	"github.com/profgen/profgen/internal/unwind"
)

// The output step, where every conversion ends. A source hands over one
// kind of profile:
//
//   - the recording scanned (recordingProfile): LBR, call stacks, CS or
//     CS probe;
//   - --unsymbolized-profile (unsymbolizedProfile): LBR, CS or CS probe
//     in llvm-profgen's unsymbolized format, call stacks in the address
//     profile of package addrprof;
//   - --llvm-sample-profile (sampleProfile): a sample profile.
//
// outputTable has a row for each (kind, format): the function that builds
// the files of that profile, or the refusal of a request the row cannot
// serve. Naming the files (OutputPath) and writing each whole
// (atomicfile) happen in one place, outputRow.write.

// profileKind is what a source hands to the output step.
type profileKind uint8

const (
	kindLBR           profileKind = iota // flat branch counters: LBR, BRBE, the branches of hybrid samples
	kindStacks                           // call-stack counts, of one binary or several
	kindCS                               // contexts of unwound hybrid samples, as symbolized frames
	kindCSProbe                          // contexts of unwound hybrid samples, as call-site addresses (pseudo probes)
	kindSampleProfile                    // an LLVM sample profile read back, flat or CS
)

var kindNames = [...]string{
	kindLBR:           "LBR",
	kindStacks:        "call stacks",
	kindCS:            "CS",
	kindCSProbe:       "CS probe",
	kindSampleProfile: "sample profile",
}

func (k profileKind) String() string { return kindNames[k] }

// outputFormat is what the options ask to write: a column of the table.
type outputFormat uint8

const (
	formatLLVM      outputFormat = iota // LLVM sample profile: text, binary or extbinary
	formatPprof                         // pprof
	formatAddress                       // the unsymbolized (address) profile: --skip-symbolization
	formatGCC                           // GCC AutoFDO (gcc.go)
	formatBolt                          // BOLT's fdata (perf2bolt), no_lbr without branch stacks
	formatPreagg                        // BOLT's pre-aggregated text (perf2bolt --pa)
	formatPropeller                     // Propeller's cc and ld profiles (propeller_output.go)
)

// binaryNeeds is what a format reads of the binaries, before any input.
type binaryNeeds uint8

const (
	needAddresses binaryNeeds = iota // their code only: nothing symbolized
	needSymbols                      // DWARF where there is some, else the ELF symbols
	needDWARF                        // DWARF, required
)

// formatColumn describes a format.
type formatColumn struct {
	name  string
	flags []formatFlag // the --format values that ask for it
	ext   string       // of a binary's file in an -o directory (OutputPath)
	needs binaryNeeds
	// traces: branch stacks are counted as BOLT's traces, and those of
	// hybrid samples read as branch stacks alone (as perf2bolt does).
	traces bool
	// parts, for a format of several files per binary, end each's name
	// (partPath); ext is then unused.
	parts []string
}

// formatFlag is a --format value and the extension of its files named
// by build id (Extension): the LLVM encodings apart, so that one
// directory holds each.
type formatFlag struct{ name, idExt string }

// flagged reports whether the --format value name asks for the column.
func (c formatColumn) flagged(name string) bool {
	return slices.ContainsFunc(c.flags, func(f formatFlag) bool { return f.name == name })
}

var formatColumns = [...]formatColumn{
	formatLLVM:    {name: "LLVM", flags: []formatFlag{{"text", "text"}, {"binary", "binary"}, {"extbinary", "extbinary"}}, ext: ".prof", needs: needDWARF},
	formatPprof:   {name: "pprof", flags: []formatFlag{{"pprof", "pb.gz"}}, ext: ".pb.gz", needs: needSymbols},
	formatAddress: {name: "address profile", ext: ".raw", needs: needAddresses}, // --skip-symbolization, whatever --format
	formatGCC:     {name: "GCC AutoFDO", flags: []formatFlag{{"gcc", "afdo"}}, ext: ".afdo", needs: needDWARF},
	formatBolt:    {name: "BOLT fdata", flags: []formatFlag{{"bolt", "fdata"}}, ext: ".fdata", needs: needAddresses, traces: true},
	formatPreagg:  {name: "BOLT pre-aggregated", flags: []formatFlag{{"bolt-preagg", "preagg"}}, ext: ".preagg", needs: needAddresses, traces: true},
	formatPropeller: {name: "Propeller", flags: []formatFlag{{"propeller", "propeller"}}, needs: needAddresses,
		parts: []string{propellerCC, propellerLD}},
}

func (f outputFormat) String() string { return formatColumns[f].name }

// formatNamed is the format --format names (checkFormat).
func formatNamed(name string) outputFormat {
	for f, c := range formatColumns {
		if c.flagged(name) {
			return outputFormat(f)
		}
	}
	return formatLLVM
}

// countsTraces reports whether the output is BOLT's: branch stacks are
// counted as its traces (lbrPath), hybrid samples read as branch stacks.
func (o *output) countsTraces() bool { return formatColumns[o.format].traces }

// symbolized reports whether the output names code by its symbols or
// DWARF (the address profile and BOLT's read the binaries' code and ELF
// symbols only): then call stacks are repaired, and symbols read ahead.
func (o *output) symbolized() bool { return formatColumns[o.format].needs != needAddresses }

// checkFormat refuses a --format that names no format.
func checkFormat(name string) error {
	for _, c := range formatColumns {
		if c.flagged(name) {
			return nil
		}
	}
	_, err := sampleprof.ParseFormat(name)
	var others []string
	for _, c := range formatColumns[formatLLVM+1:] {
		for _, f := range c.flags {
			others = append(others, f.name)
		}
	}
	return usagef("--format: %v (or %s)", err, strings.Join(others, ", "))
}

// profileInput is the profile a source hands over: kind says which field
// holds it.
type profileInput struct {
	kind   profileKind
	lbr    []lbrCounts            // kindLBR: by binary
	stacks *aggregate.StackCounts // kindStacks
	// syms are the symbols the contexts of kindCS and kindCSProbe were
	// made with.
	syms            *csprofile.Symbols
	contexts        []csprofile.Context // kindCS
	addressContexts []unwind.Context    // kindCSProbe
	profile         *sampleprof.Profile // kindSampleProfile
	// noDataAccess: kindLBR of the branches of hybrid samples, which
	// llvm-profgen 22 gives no vtable counts (--data-access-perftrace).
	noDataAccess bool
	// repair, when not nil, repairs the call stacks of kindStacks before
	// the first output that takes them repaired (writeProfiles), the
	// outputs that take them as perf unwound them (the address profile,
	// BOLT's) having been written (outputset.go).
	repair func()
	// samples are what the input's samples went to.
	samples SampleCounts
	// profiles are what the frames of --profile files went to.
	profiles *ProfileCounts
}

// lbrCounts are what one binary's LBR path counted.
type lbrCounts struct {
	counters   *generate.Counters
	traces     *traceCounts // of a recording, for BOLT output
	usedLLVM   uint64       // samples counted in counters
	usedTraces uint64       // ... in traces
}

// used is the number of samples counted for the output.
func (c lbrCounts) used(o *output) uint64 {
	if o.countsTraces() {
		return c.usedTraces
	}
	return c.usedLLVM
}

// profileFile is a file a row writes.
type profileFile struct {
	bin   int // the binary it is the profile of (index in bins.files), for a row of filePerBinary
	part  int // which of the format's parts it is (formatColumn.parts)
	write func(io.Writer) error
	// profile is the sample profile write writes, for a row that writes
	// it in another format (gccOf).
	profile *sampleprof.Profile
}

// fileNaming says which binaries a row's files are the profiles of, and so
// how they are named.
type fileNaming uint8

const (
	fileOfPrimary fileNaming = iota // one file, the profile of the one binary: OutputPath names it
	filePerBinary                   // a file per binary: OutputPath names each among all
	fileOfAll                       // one file for every binary: -o
)

// outputRow is a cell of the table: build makes the files of a profile of
// kind in format, or refuse says why there are none (a row with both
// refuses some requests, when refuse returns an error).
type outputRow struct {
	kind   profileKind
	format outputFormat
	files  fileNaming
	build  func(o *output, bins *binaries, in *profileInput) ([]profileFile, error)
	refuse func(o *output) error
}

// outputTable holds every output profgen writes; a (kind, format) without
// a row is refused (outputFor). The recording's kinds and those of
// --unsymbolized-profile go through the same rows. A new output is a row
// here and its build function.
var outputTable = []outputRow{
	{kind: kindLBR, format: formatLLVM, files: filePerBinary, build: lbrSampleProfile},
	{kind: kindLBR, format: formatPprof, refuse: refuseLBRPprof},
	{kind: kindLBR, format: formatAddress, files: filePerBinary, build: lbrAddressProfile},
	{kind: kindStacks, format: formatLLVM, files: filePerBinary, build: stackSampleProfiles},
	{kind: kindStacks, format: formatPprof, files: fileOfAll, build: stackPprof},
	{kind: kindStacks, format: formatAddress, files: fileOfAll, build: stackAddressProfile},
	{kind: kindCS, format: formatLLVM, files: fileOfPrimary, build: csSampleProfile},
	{kind: kindCS, format: formatPprof, refuse: refuseHybridPprof},
	{kind: kindCS, format: formatAddress, files: fileOfPrimary, build: csAddressProfile},
	{kind: kindCSProbe, format: formatLLVM, files: fileOfPrimary, build: csProbeSampleProfile},
	{kind: kindCSProbe, format: formatPprof, refuse: refuseHybridPprof},
	{kind: kindCSProbe, format: formatAddress, files: fileOfPrimary, build: csProbeAddressProfile},
	{kind: kindSampleProfile, format: formatLLVM, files: fileOfPrimary, build: sampleProfileAgain},
	{kind: kindSampleProfile, format: formatPprof, refuse: refuseSampleProfilePprof},
	// llvm-profgen writes --llvm-sample-profile in --format whatever
	// --skip-symbolization says.
	{kind: kindSampleProfile, format: formatAddress, files: fileOfPrimary, build: sampleProfileAgain},
	{kind: kindLBR, format: formatGCC, files: filePerBinary, build: gccOf(lbrSampleProfile)},
	{kind: kindStacks, format: formatGCC, files: filePerBinary, build: gccOf(stackSampleProfiles)},
	{kind: kindCS, format: formatGCC, files: fileOfPrimary, build: gccOf(csSampleProfile)}, // --unsymbolized-profile: contexts merged by function
	{kind: kindCSProbe, format: formatGCC, refuse: refuseGCCProbes},
	{kind: kindSampleProfile, format: formatGCC, files: fileOfPrimary, build: gccOf(sampleProfileAgain)},
	{kind: kindLBR, format: formatBolt, files: filePerBinary, build: lbrFdata, refuse: refuseUnsymbolizedBolt},
	{kind: kindLBR, format: formatPreagg, files: filePerBinary, build: lbrPreagg, refuse: refuseUnsymbolizedBolt},
	{kind: kindStacks, format: formatBolt, files: filePerBinary, build: stackNoLBRFdata},
	{kind: kindLBR, format: formatPropeller, files: filePerBinary, build: lbrPropeller},
	{kind: kindStacks, format: formatPropeller, refuse: refuseStacksPropeller},
}

// outputFor returns the row that writes kind as the output asks, or its
// refusal (a RefusedError).
func outputFor(kind profileKind, o *output) (*outputRow, error) {
	for i := range outputTable {
		r := &outputTable[i]
		if r.kind != kind || r.format != o.format {
			continue
		}
		if r.refuse != nil {
			if err := r.refuse(o); err != nil || r.build == nil {
				return nil, &RefusedError{Format: o.flag, Err: err}
			}
		}
		return r, nil
	}
	return nil, &RefusedError{Format: o.flag, Err: fmt.Errorf("%s holds %s input: the %s format does not take it", o.src.name(), kind, o.format)}
}

// write builds the row's files and writes each whole into pending: the
// one place output files are named and written.
func (r *outputRow) write(o *output, bins *binaries, in *profileInput, pending *pendingFiles) ([]OutputFile, error) {
	files, err := r.build(o, bins, in)
	if err != nil {
		return nil, err
	}
	var written []OutputFile
	for _, f := range files {
		path, err := r.path(o, bins, f)
		if err != nil {
			return nil, err
		}
		if err := pending.add(path, f.write); err != nil {
			return nil, err
		}
		written = append(written, OutputFile{Format: o.flag, Path: path, BuildIDs: r.buildIDs(bins, f), Part: r.part(f)})
	}
	return written, nil
}

// buildIDs are the build ids of the binaries a file of the row is the
// profile of ("" for one without a build id): every binary for a file of
// all, sorted.
func (r *outputRow) buildIDs(bins *binaries, f profileFile) []string {
	switch r.files {
	case fileOfPrimary:
		return []string{bins.primary().BuildIDHex()}
	case filePerBinary:
		return []string{bins.files[f.bin].BuildIDHex()}
	}
	ids := make([]string, len(bins.files))
	for i, b := range bins.files {
		ids[i] = b.BuildIDHex()
	}
	slices.Sort(ids)
	return ids
}

// path names a file of the row by the binary it is the profile of; a
// file of every binary is -o, or, where -o is a directory or a %b
// pattern, named by the first binary (the first --binary).
func (r *outputRow) path(o *output, bins *binaries, f profileFile) (string, error) {
	if r.files == fileOfAll && !namesPattern(o.path) {
		return o.path, nil
	}
	bin, among := 0, 1 // fileOfPrimary, fileOfAll
	if r.files == filePerBinary {
		bin, among = f.bin, len(bins.files)
	}
	if parts := formatColumns[r.format].parts; parts != nil {
		return partPath(o.path, bins.files[bin].Path(), parts[f.part], among)
	}
	return outputPathExt(o.path, bins.files[bin].Path(), formatColumns[r.format].ext, among)
}

// part names the part f is of its binary's files, for a format of
// several ("" for others).
func (r *outputRow) part(f profileFile) string {
	if parts := formatColumns[r.format].parts; parts != nil {
		return parts[f.part]
	}
	return ""
}

// oneFile is the one file of a row.
func oneFile(write func(io.Writer) error) []profileFile {
	return []profileFile{{write: write}}
}

// sampleProfileFile is the file of prof in --format; --use-md5 of another
// format than extbinary is ignored with llvm-profgen's warning.
func sampleProfileFile(o *output, bin int, prof *sampleprof.Profile) profileFile {
	md5 := o.useMD5
	if md5 && o.encoding != sampleprof.FormatExtBinary {
		fmt.Fprintln(o.Stderr, "warning: -use-md5 is ignored. Specify --format=extbinary to enable it")
		md5 = false
	}
	return profileFile{bin: bin, profile: prof, write: func(w io.Writer) error {
		return sampleprof.WriteOptions{UseMD5: md5, VTables: o.vtables}.Write(w, prof, o.encoding)
	}}
}

// errUnsymbolizedPprof refuses pprof of an unsymbolized profile in
// llvm-profgen's format (LBR ranges, flat or in contexts).
var errUnsymbolizedPprof = usagef("--unsymbolized-profile holds LBR ranges; --format=pprof needs call stacks")

func refuseLBRPprof(o *output) error {
	if o.src.kind == fromUnsymbolized {
		return errUnsymbolizedPprof
	}
	return fmt.Errorf("%s holds branch stacks (LBR) without call chains: --format=pprof needs perf record -g", o.src.name())
}

func refuseHybridPprof(o *output) error {
	if o.src.kind == fromUnsymbolized {
		return errUnsymbolizedPprof
	}
	return fmt.Errorf("%s holds hybrid samples: --format=pprof takes call-stack samples (perf record -g without -b)", o.src.name())
}

func refuseSampleProfilePprof(o *output) error {
	_, err := sampleprof.ParseFormat(o.flag)
	return usagef("--format: %v", err)
}

// OutputPath names the LLVM profile of binary. With one binary, out is the
// file. With several: out containing "%b" is a pattern (%b = the binary's
// base name), a directory (one that exists, or out ending in a slash)
// gets <base>.prof files; anything else is an error, so that profiles
// never overwrite each other.
func OutputPath(out, binary string, nbins int) (string, error) {
	return outputPathExt(out, binary, formatColumns[formatLLVM].ext, nbins)
}

// outputPathExt is OutputPath for a format whose files in a directory end
// in ext (formatColumn.ext).
func outputPathExt(out, binary, ext string, nbins int) (string, error) {
	base := filepath.Base(binary)
	if strings.Contains(out, "%b") {
		return strings.ReplaceAll(out, "%b", base), nil
	}
	if namesDirectory(out) {
		return filepath.Join(out, base+ext), nil
	}
	if nbins == 1 {
		return out, nil
	}
	return "", usagef("%d binaries need one output each: make -o a directory or a pattern with %%b", nbins)
}

// checkOutput refuses, before any work, an output that cannot be written:
// a missing directory, or several binaries' LLVM profiles into one file.
func checkOutput(p *plan) error { return checkOutputOf(p, p.Binaries) }

// checkFoundOutput is checkOutput for the binaries found by build id.
func checkFoundOutput(p *plan, refs []binaryRef) error {
	names := make([]string, len(refs))
	for i, r := range refs {
		names[i] = r.name
	}
	return checkOutputOf(p, names)
}

// checkOutputOf is checkOutput for the profiles of these binaries, for
// every output of the run: each file writable, no two the same.
func checkOutputOf(p *plan, binaries []string) error {
	var all [][]string
	for _, o := range p.outputs {
		paths, err := outputPaths(o, binaries)
		if err != nil {
			return err
		}
		all = append(all, paths)
	}
	return checkDistinct(all)
}

// outputPaths are the files one output writes for these binaries,
// checked writable ("-" is standard output). A directory named with a
// trailing slash that does not exist yet is made here, once the options
// are valid.
func outputPaths(o *output, binaries []string) ([]string, error) {
	if o.path == "-" {
		return []string{"-"}, nil
	}
	outs, err := filesNamed(o, binaries)
	if err != nil {
		return nil, err
	}
	for _, p := range outs {
		if err := atomicfile.CheckWritable(p); err != nil {
			return nil, &UsageError{Msg: err.Error()}
		}
	}
	return outs, nil
}

// filesNamed are the files one output writes for these binaries: one per
// binary, or one named by -o, or by the first binary where -o is a
// directory or a %b pattern (outputRow.path).
func filesNamed(o *output, binaries []string) ([]string, error) {
	perBinary := namesPerBinary(o.format, o.path)
	if !perBinary && !namesPattern(o.path) {
		return []string{o.path}, nil
	}
	if err := makeOutputDir(o.path); err != nil {
		return nil, err
	}
	if !perBinary {
		binaries = binaries[:min(len(binaries), 1)]
	}
	var outs []string
	for _, b := range binaries {
		ps, err := filesOf(o, b, len(binaries))
		if err != nil {
			return nil, err
		}
		outs = append(outs, ps...)
	}
	return outs, nil
}

// filesOf are the files o writes for binary, one of nbins.
func filesOf(o *output, binary string, nbins int) ([]string, error) {
	parts := formatColumns[o.format].parts
	if parts == nil {
		p, err := outputPathExt(o.path, binary, formatColumns[o.format].ext, nbins)
		return []string{p}, err
	}
	var paths []string
	for _, part := range parts {
		p, err := partPath(o.path, binary, part, nbins)
		if err != nil {
			return nil, err
		}
		paths = append(paths, p)
	}
	return paths, nil
}

// namesPerBinary reports whether format writes a file per binary into
// out: then, before the input is read, each binary's is checked. It does
// when its rows do (some do, none writes one file for every binary); the
// address profile is one file of call stacks, a file per binary of
// branch stacks: when out is a directory or a %b pattern.
func namesPerBinary(format outputFormat, out string) bool {
	perBinary, ofAll := false, false
	for _, r := range outputTable {
		if r.format == format {
			perBinary = perBinary || r.files == filePerBinary
			ofAll = ofAll || r.files == fileOfAll
		}
	}
	if perBinary && ofAll {
		return namesPattern(out)
	}
	return perBinary
}

// namesPattern reports whether out names a file per binary: a directory,
// or a pattern with %b (OutputPath).
func namesPattern(out string) bool {
	return strings.Contains(out, "%b") || namesDirectory(out)
}

// namesDirectory reports whether out names a directory: one that exists,
// or one to make (a path ending in a slash).
func namesDirectory(out string) bool {
	if strings.HasSuffix(out, string(filepath.Separator)) {
		return true
	}
	st, err := os.Stat(out)
	return err == nil && st.IsDir()
}

// makeOutputDir makes out, with its parents, when it names a directory
// by its trailing slash that does not exist yet.
func makeOutputDir(out string) error {
	if !strings.HasSuffix(out, string(filepath.Separator)) || strings.Contains(out, "%b") {
		return nil
	}
	if err := os.MkdirAll(out, 0o777); err != nil {
		return usagef("-o %s: %v", out, err)
	}
	return nil
}
