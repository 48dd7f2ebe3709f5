// Command goversions is built by each pinned Go toolchain
// (scripts/testdata.d/72-goversions.sh) for the tests that read Go's
// pclntab against its DWARF: code of the standard library (sorting,
// encoding/json, strings) with inlining, closures, method values and
// generics, in the language of Go 1.20, the first pclntab profgen reads.
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"
)

type record struct {
	Name string
	N    int
}

// largest is generic: the compiler makes shaped instances of it.
func largest[T int | float64](xs []T) T {
	var m T
	for _, x := range xs {
		if x > m {
			m = x
		}
	}
	return m
}

func (r record) String() string { return fmt.Sprintf("%s=%d", r.Name, r.N) }

func main() {
	var rs []record
	var ns []int
	for i := 0; i < 1000; i++ {
		rs = append(rs, record{strings.Repeat("x", i%7), i})
		ns = append(ns, i*7%1000)
	}
	sort.Slice(rs, func(i, j int) bool { return rs[i].Name < rs[j].Name })
	show := rs[0].String // a method value: Go makes a wrapper
	b, err := json.Marshal(rs)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Println(len(b), largest(ns), show())
}
