package sampleprof_test

import (
	"bytes"
	"fmt"
	"os"
	"strings"

	"github.com/profgen/profgen/internal/sampleprof"
)

// Converting a text profile to extbinary, as llvm-profdata merge --sample
// --extbinary does, and reading it back.
func Example() {
	p, err := sampleprof.Read(strings.NewReader("main:100:1\n 1: 60 foo:60\n 2: foo:40\n  1: 40\n"))
	if err != nil {
		fmt.Println(err)
		return
	}
	var ext bytes.Buffer
	if err := sampleprof.Write(&ext, p, sampleprof.FormatExtBinary); err != nil {
		fmt.Println(err)
		return
	}
	q, err := sampleprof.Read(&ext)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("hot threshold:", sampleprof.ComputeSummary(q).HotThreshold())
	sampleprof.WriteText(os.Stdout, q)
	// Output:
	// hot threshold: 40
	// main:100:1
	//  1: 60 foo:60
	//  2: foo:40
	//   1: 40
}
