package main

// Flag spellings of LLVM's command-line library that pflag does not have
// by itself: an option whose values are separate flags (--text, --binary,
// --extbinary: the last one wins), and short options glued to their value
// (-j1, -j=1).

import (
	"fmt"
	"runtime/debug"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/profgen/profgen/internal/profshow"
)

// choiceFlag is one value of an LLVM enum option spelled as its own flag:
// setting it stores its value in the shared target, so the last one wins.
type choiceFlag struct {
	target *string
	value  string
}

func (c choiceFlag) String() string { return "false" }
func (c choiceFlag) Type() string   { return "bool" }

func (c choiceFlag) Set(s string) error {
	switch {
	case s != "true" && c.value == "binary":
		return fmt.Errorf("--binary is the output format flag, as in llvm-profdata; give the binary in --binary-file")
	case s != "true":
		return fmt.Errorf("--%s takes no value", c.value)
	}
	*c.target = c.value
	return nil
}

// choiceVar registers the flags values, each storing its own name in target.
func choiceVar(fs *pflag.FlagSet, target *string, usage map[string]string, values ...string) {
	for _, v := range values {
		fs.Var(choiceFlag{target, v}, v, usage[v])
		fs.Lookup(v).NoOptDefVal = "true"
	}
}

// gluedShortArgs undoes what the root's llvmStyleArgs does to a short
// option glued to its value: --j1 and --j=1 become -j1 and -j=1 again when
// no long flag has that name and j is a short flag taking a value.
func gluedShortArgs(fs *pflag.FlagSet, args []string) []string {
	out := make([]string, 0, len(args))
	for i, a := range args {
		if a == "--" {
			return append(out, args[i:]...)
		}
		name, _, _ := strings.Cut(strings.TrimPrefix(a, "--"), "=")
		if strings.HasPrefix(a, "--") && len(name) > 0 && fs.Lookup(name) == nil {
			if f := fs.ShorthandLookup(name[:1]); f != nil && f.NoOptDefVal == "" {
				a = a[1:]
			}
		}
		out = append(out, a)
	}
	return out
}

// withLLVMArgs makes cmd parse its own flags, after gluedShortArgs, and
// answer --help and --version itself.
func withLLVMArgs(cmd *cobra.Command) *cobra.Command {
	run := cmd.RunE
	cmd.DisableFlagParsing = true
	cmd.RunE = func(c *cobra.Command, args []string) error {
		fs := c.Flags()
		if err := fs.Parse(gluedShortArgs(fs, args)); err != nil {
			return err
		}
		if help, _ := fs.GetBool("help"); help {
			return c.Help()
		}
		if v, _ := fs.GetBool("version"); v {
			_, err := fmt.Fprintln(c.OutOrStdout(), versionText())
			return err
		}
		// The root's persistent hook (--cpuprofile) ran before the flags
		// were parsed; it runs again now that they are.
		if pre := c.Root().PersistentPreRunE; pre != nil {
			if err := pre(c, fs.Args()); err != nil {
				return err
			}
		}
		return run(c, fs.Args())
	}
	return cmd
}

// version is set by make build (-X main.version=git describe); a build
// without it takes the module's version or VCS revision from the build info.
var version string

// versionText is what --version prints, on every command.
func versionText() string {
	return "profgen " + buildVersion() + "\n  drop-in for llvm-profgen and llvm-profdata of LLVM 22 (writes indexed profile version 13; --output-version=12 for clang 19 to 21)"
}

// buildVersion is version, else the module version and VCS revision.
func buildVersion() string {
	if version != "" {
		return version
	}
	v := "(devel)"
	if bi, ok := debug.ReadBuildInfo(); ok {
		if bi.Main.Version != "" {
			v = bi.Main.Version
		}
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" && len(s.Value) >= 12 {
				v += " " + s.Value[:12]
			}
		}
	}
	return v
}

// addProfdataCommands adds show, merge, overlap and order below root and gives every
// command --version.
func addProfdataCommands(root *cobra.Command) {
	root.AddCommand(newShowCommand(), newMergeCommand(), newOverlapCommand(), newOrderCommand())
	for _, c := range append(root.Commands(), root) {
		c.Version = versionText()
		c.SetVersionTemplate("{{.Version}}\n")
	}
}

// cutoffList is an LLVM comma-separated list option of detailed-summary
// cutoffs: each occurrence appends its values, each at most 1000000 (parts
// per million).
type cutoffList struct{ target *[]uint64 }

func newCutoffList(target *[]uint64) cutoffList { return cutoffList{target} }

func (c cutoffList) Type() string { return "uints" }

func (c cutoffList) String() string {
	if c.target == nil {
		return ""
	}
	s := make([]string, len(*c.target))
	for i, v := range *c.target {
		s[i] = strconv.FormatUint(v, 10)
	}
	return strings.Join(s, ",")
}

func (c cutoffList) Set(s string) error {
	for _, f := range strings.Split(s, ",") {
		v, err := strconv.ParseUint(f, 10, 32)
		if err != nil || v > 1000000 {
			return fmt.Errorf("%q is not a cutoff (0 to 1000000 parts per million)", f)
		}
		*c.target = append(*c.target, v)
	}
	return nil
}

// llvmVersion is --llvm-version: the llvm-profdata release whose text
// show and overlap write, 22 (the default) or 19.
type llvmVersion struct{ target *int }

// llvmVersionVar adds the hidden --llvm-version flag setting target.
func llvmVersionVar(fs *pflag.FlagSet, target *int) {
	*target = profshow.LLVM22
	fs.Var(llvmVersion{target}, "llvm-version", "profgen: write llvm-profdata-19's text (19) instead of llvm-profdata-22's (22)")
	_ = fs.MarkHidden("llvm-version")
}

func (v llvmVersion) Type() string { return "int" }

func (v llvmVersion) String() string {
	if v.target == nil {
		return ""
	}
	return strconv.Itoa(*v.target)
}

func (v llvmVersion) Set(s string) error {
	n, err := strconv.Atoi(s)
	if err != nil || n != profshow.LLVM19 && n != profshow.LLVM22 {
		return fmt.Errorf("%q: want 19 or 22", s)
	}
	*v.target = n
	return nil
}
