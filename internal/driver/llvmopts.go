package driver

// LLVMOptions are llvm-profgen 19's tuning and diagnostic options, with
// its meanings. The zero value is llvm-profgen's default everywhere except
// the density options, which only apply when Density is set (profgen's
// command line always sets them).
type LLVMOptions struct {
	// Unsymbolized profile addresses (--skip-symbolization output and
	// --unsymbolized-profile input): AbsoluteAddresses (--use-offset=false)
	// keeps virtual addresses; FirstLoadableBase
	// (--use-first-loadable-segment-as-base) makes offsets relative to the
	// first PT_LOAD rather than the first executable one.
	AbsoluteAddresses bool
	FirstLoadableBase bool

	// SamplePeriod (--sample-period, 0 = not given) multiplies the count of
	// each LBR sample, divided by its number of branches less one (or not,
	// with LeadingIPOnly), as llvm-profgen 19's LBR reader does.
	SamplePeriod uint64
	// LeadingIPOnly (--leading-ip-only) makes the profile of the sample IPs
	// alone: each sampled instruction counts once, body samples of a line are
	// summed, branch stacks are ignored.
	LeadingIPOnly bool

	FillZeroForAllFuncs       bool // every function of the binary gets zero body samples
	PopulateProfileSymbolList bool // extbinary: the binary's function names as ProfileSymbolList
	UpdateTotalSamples        bool // a function's total is the sum of its body and inlinee samples

	// Density: the profile-density check and report (--show-density,
	// --profile-density-threshold, --profile-density-cutoff-hot); nil: none.
	Density *DensityOptions

	ShowMmapEvents      bool // print "Mmap: Binary … loaded at …" for each mmap event (stdout)
	ShowDetailedWarning bool // print each invalid range besides the percentages

	// Summary thresholds (--profile-summary-hot-count, -cold-count,
	// -contextless): they steer context-sensitive generation; of a profile
	// without contexts, the cold count decides which functions
	// --trim-cold-profile drops, as in llvm-profgen 19.
	SummaryHotCount, SummaryColdCount *uint64
	SummaryContextless                bool

	// ShowDisassemblyOnly (--show-disassembly-only) prints the disassembly
	// of the binary on Stdout and reads no input (see showListing); with
	// it, ShowSourceLocations (--show-source-locations) adds each
	// instruction's inline stack, ShowCanonicalFuncName
	// (--show-canonical-fname) prints symbols by their canonical names,
	// DisassembleFunctions (--disassemble-functions) lists only those
	// symbols, Options.ShowPseudoProbe adds the probes, and IntelSyntax
	// (--x86-asm-syntax=intel) prints x86 instructions in Intel syntax.
	ShowDisassemblyOnly   bool
	ShowSourceLocations   bool
	ShowCanonicalFuncName bool
	DisassembleFunctions  []string
	IntelSyntax           bool

	// DWP is the DWARF package of the (primary) split-DWARF binary (--dwp;
	// default: the path of the file holding its DWARF with ".dwp"
	// appended). When it cannot be opened, the .dwo files are read.
	DWP string
	// NoSymtabFunctions (--load-function-from-symbol=false): the functions
	// of a pseudo-probe binary known only from its symbol table (an object
	// built without -g) are not added, as in llvm-profgen 19; by default
	// they are, as in 22 (symbolize.Table.AddSymtabFunctions), and the
	// samples of their ranges are counted in a warning.
	NoSymtabFunctions bool
	// Kernel (--kernel): the binary is the Linux kernel, loaded where the
	// [kernel.kallsyms] mmap says, for every process.
	Kernel bool
	// TimePhases (--time-profgen) prints the time of each phase on stderr.
	TimePhases bool
}

// DensityOptions are llvm-profgen's profile-density options.
type DensityOptions struct {
	Show      bool    // --show-density: print the density line on stdout
	Threshold float64 // --profile-density-threshold (50): warn below it
	CutoffHot int     // --profile-density-cutoff-hot (990000 = 99%)
}

// DefaultDensity is llvm-profgen 19's density configuration.
func DefaultDensity() *DensityOptions {
	return &DensityOptions{Threshold: 50, CutoffHot: 990000}
}
