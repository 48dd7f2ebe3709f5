package main

import (
	"os"
	"runtime/pprof"

	"github.com/spf13/cobra"
)

// addCPUProfileFlag adds a hidden --cpuprofile=FILE to cmd and its
// subcommands: a CPU profile of the run, to see where the time goes.
func addCPUProfileFlag(cmd *cobra.Command) {
	var path string
	var f *os.File
	cmd.PersistentFlags().StringVar(&path, "cpuprofile", "", "write a CPU profile of the run to this file")
	_ = cmd.PersistentFlags().MarkHidden("cpuprofile")
	cmd.PersistentPreRunE = func(*cobra.Command, []string) error {
		if path == "" {
			return nil
		}
		var err error
		if f, err = os.Create(path); err != nil {
			return err
		}
		return pprof.StartCPUProfile(f)
	}
	cmd.PersistentPostRun = func(*cobra.Command, []string) {
		if f != nil {
			pprof.StopCPUProfile()
			f.Close()
		}
	}
}
