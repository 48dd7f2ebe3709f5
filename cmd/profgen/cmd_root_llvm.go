package main

import (
	"github.com/spf13/pflag"

	"github.com/profgen/profgen/internal/driver"
)

// llvmProfgenFlags are llvm-profgen 19's tuning and diagnostic options,
// with its names, defaults and meanings (driver.LLVMOptions says what each
// does).
type llvmProfgenFlags struct {
	useOffset, loadFunctionFromSymbol bool
	asmSyntax                         string
	hotCount, coldCount               uint64
	density                           driver.DensityOptions
}

// addLLVMProfgenFlags registers them on fs, storing into o.
func (f *llvmProfgenFlags) addLLVMProfgenFlags(fs *pflag.FlagSet, o *driver.Options) {
	l := &o.LLVM
	fs.StringVar(&o.LLVMSampleProfile, "llvm-sample-profile", "", "an LLVM sample profile as input, written again (ambiguous functions dropped, density checked)")
	fs.BoolVar(&f.useOffset, "use-offset", true, "the unsymbolized profile (--skip-symbolization, --unsymbolized-profile) holds offsets from the binary's base, not virtual addresses")
	fs.BoolVar(&l.FirstLoadableBase, "use-first-loadable-segment-as-base", false, "offsets in the unsymbolized profile are from the first loadable segment, not the first executable one")
	fs.Uint64Var(&l.SamplePeriod, "sample-period", 1, "the sampling period (perf record -c): LBR sample counts are multiplied by it (divided by the branches per sample less one)")
	fs.BoolVar(&l.LeadingIPOnly, "leading-ip-only", false, "make the profile of the sample IPs alone, ignoring branch stacks")
	fs.BoolVar(&l.FillZeroForAllFuncs, "fill-zero-for-all-funcs", false, "give every function of the binary zero samples where nothing was sampled")
	fs.BoolVar(&l.PopulateProfileSymbolList, "populate-profile-symbol-list", false, "extbinary: store the binary's function names (ProfileSymbolList)")
	fs.BoolVar(&l.UpdateTotalSamples, "update-total-samples", false, "make each function's total the sum of its body samples")
	fs.BoolVar(&f.density.Show, "show-density", false, "print the profile density on stdout")
	fs.Float64Var(&f.density.Threshold, "profile-density-threshold", 50, "warn that more samples are needed below this profile density")
	fs.IntVar(&f.density.CutoffHot, "profile-density-cutoff-hot", 990000, "the share of samples (in millionths) of the hottest functions the density looks at")
	fs.Uint64Var(&f.hotCount, "profile-summary-hot-count", 0, "the count above which a sample is hot (default: the summary's; context-sensitive generation)")
	fs.Uint64Var(&f.coldCount, "profile-summary-cold-count", 0, "the count below which a sample is cold (default: the summary's; context-sensitive generation, --trim-cold-profile)")
	fs.BoolVar(&l.SummaryContextless, "profile-summary-contextless", false, "compute the summary thresholds on profiles merged across contexts")
	fs.BoolVar(&l.ShowMmapEvents, "show-mmap-events", false, "print each binary load event of the input on stdout")
	fs.BoolVar(&l.ShowDetailedWarning, "show-detailed-warning", false, "print each range behind llvm-profgen's range warnings")
	fs.BoolVar(&l.ShowDisassemblyOnly, "show-disassembly-only", false, "print the disassembly of the binary on stdout (as llvm-profgen does) and read no input")
	fs.BoolVar(&l.ShowSourceLocations, "show-source-locations", false, "with --show-disassembly-only: print source locations")
	fs.BoolVar(&l.ShowCanonicalFuncName, "show-canonical-fname", false, "with --show-disassembly-only: print canonical function names")
	fs.StringSliceVar(&l.DisassembleFunctions, "disassemble-functions", nil, "with --show-disassembly-only: the functions to print (demangled names, comma-separated)")
	fs.StringVar(&f.asmSyntax, "x86-asm-syntax", "att", "with --show-disassembly-only: att or intel, the syntax of x86 instructions")
	fs.StringVar(&l.DWP, "dwp", "", "the DWARF package (.dwp) of a split-DWARF binary (default: the --binary, or --debug-binary, path with .dwp appended; when it cannot be opened, the .dwo files are read)")
	fs.BoolVar(&f.loadFunctionFromSymbol, "load-function-from-symbol", true, "pseudo-probe binaries: add the functions only the symbol table knows (incomplete DWARF), as llvm-profgen 22; =false as 19")
	fs.BoolVar(&l.Kernel, "kernel", false, "the binary is the Linux kernel ([kernel.kallsyms] mmap events)")
	fs.BoolVar(&l.TimePhases, "time-profgen", false, "print the time of each phase on stderr")
}

// apply stores what the flags mean into o once they are parsed.
func (f *llvmProfgenFlags) apply(fs *pflag.FlagSet, o *driver.Options) error {
	l := &o.LLVM
	l.AbsoluteAddresses = !f.useOffset
	l.NoSymtabFunctions = !f.loadFunctionFromSymbol
	if !fs.Changed("sample-period") {
		l.SamplePeriod = 0
	}
	if fs.Changed("profile-summary-hot-count") {
		l.SummaryHotCount = &f.hotCount
	}
	if fs.Changed("profile-summary-cold-count") {
		l.SummaryColdCount = &f.coldCount
	}
	l.Density = &f.density
	switch f.asmSyntax {
	case "att", "intel":
		l.IntelSyntax = f.asmSyntax == "intel"
	default:
		return usageError{errString("for the --x86-asm-syntax option: Cannot find option named '" + f.asmSyntax + "'!")}
	}
	if l.ShowSourceLocations && !l.ShowDisassemblyOnly {
		return usageError{errString("--show-source-locations should work together with --show-disassembly-only!")}
	}
	return nil
}

type errString string

func (e errString) Error() string { return string(e) }
