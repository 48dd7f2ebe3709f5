package main

import (
	"os"
	"runtime/pprof"

	"github.com/spf13/cobra"
)

// addCPUProfileFlag adds hidden --cpuprofile=FILE and --memprofile=FILE
// to cmd and its subcommands: a CPU profile of the run, and a heap profile
// at its end (allocations over the whole run), to see where the time and
// the memory go.
func addCPUProfileFlag(cmd *cobra.Command) {
	var cpuPath, memPath string
	var f *os.File
	cmd.PersistentFlags().StringVar(&cpuPath, "cpuprofile", "", "write a CPU profile of the run to this file")
	cmd.PersistentFlags().StringVar(&memPath, "memprofile", "", "write a heap profile at the end of the run to this file")
	_ = cmd.PersistentFlags().MarkHidden("cpuprofile")
	_ = cmd.PersistentFlags().MarkHidden("memprofile")
	cmd.PersistentPreRunE = func(*cobra.Command, []string) error {
		if cpuPath == "" {
			return nil
		}
		var err error
		if f, err = os.Create(cpuPath); err != nil {
			return err
		}
		return pprof.StartCPUProfile(f)
	}
	cmd.PersistentPostRun = func(*cobra.Command, []string) {
		if f != nil {
			pprof.StopCPUProfile()
			f.Close()
		}
		if memPath != "" {
			writeHeapProfile(memPath)
		}
	}
}

func writeHeapProfile(path string) {
	f, err := os.Create(path)
	if err != nil {
		return
	}
	defer f.Close()
	_ = pprof.Lookup("heap").WriteTo(f, 0)
}
