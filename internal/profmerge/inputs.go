package profmerge

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/profgen/profgen/internal/instrprof/merge"
	"github.com/profgen/profgen/internal/quote"
)

// Inputs are the ways llvm-profdata merge takes its inputs.
type Inputs struct {
	Args       []string // FILE, DIR or @RESPONSE-FILE
	Weighted   []string // --weighted-input=W,FILE
	InputFiles string   // -f FILE: one [W,]FILE a line, # comments
}

// Collect lists the inputs in order (arguments, weighted inputs, the input
// list); directories are walked, sorted, for every regular file.
func (in Inputs) Collect() ([]merge.Input, error) {
	var out []merge.Input
	for _, a := range in.Args {
		list, err := argInputs(a)
		if err != nil {
			return nil, err
		}
		out = append(out, list...)
	}
	for _, w := range in.Weighted {
		i, err := parseWeighted(w)
		if err != nil {
			return nil, fmt.Errorf("--weighted-input=%s: %w", quote.String(w), err)
		}
		out = append(out, i)
	}
	if in.InputFiles != "" {
		list, err := readInputList(in.InputFiles)
		if err != nil {
			return nil, err
		}
		out = append(out, list...)
	}
	if len(out) == 0 {
		return nil, errors.New("no input files")
	}
	return expandDirs(out)
}

// DumpInputs prints the inputs as WEIGHT,FILE lines, as llvm-profdata
// merge --dump-input-file-list does.
func DumpInputs(w io.Writer, in Inputs) error {
	list, err := in.Collect()
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	for _, i := range list {
		fmt.Fprintf(bw, "%d,%s\n", max(i.Weight, 1), i.Path)
	}
	return bw.Flush()
}

// argInputs reads an @response file, or takes a plain argument.
func argInputs(a string) ([]merge.Input, error) {
	if rsp, ok := strings.CutPrefix(a, "@"); ok {
		return readInputList(rsp)
	}
	return []merge.Input{{Path: a, Weight: 1}}, nil
}

func parseWeighted(s string) (merge.Input, error) {
	w, file, ok := strings.Cut(s, ",")
	if !ok || file == "" {
		return merge.Input{}, errors.New("want W,FILE")
	}
	n, err := strconv.ParseUint(w, 10, 64)
	if err != nil || n == 0 {
		return merge.Input{}, fmt.Errorf("weight %s is not a positive integer", quote.String(w))
	}
	return merge.Input{Path: file, Weight: n}, nil
}

func readInputList(path string) ([]merge.Input, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("input list: %w", err)
	}
	defer f.Close()
	var in []merge.Input
	err = scanLines(path, f, func(_ int, line string) error {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			return nil
		}
		if i, err := parseWeighted(line); err == nil {
			in = append(in, i)
		} else {
			in = append(in, merge.Input{Path: line, Weight: 1})
		}
		return nil
	})
	return in, err
}

func expandDirs(in []merge.Input) ([]merge.Input, error) {
	var out []merge.Input
	for _, i := range in {
		st, err := os.Stat(i.Path)
		if err != nil {
			return nil, err
		}
		if !st.IsDir() {
			out = append(out, i)
			continue
		}
		files, err := regularFiles(i.Path)
		if err != nil {
			return nil, err
		}
		for _, f := range files {
			out = append(out, merge.Input{Path: f, Weight: i.Weight})
		}
	}
	return out, nil
}

// regularFiles lists the regular files under dir, sorted.
func regularFiles(dir string) ([]string, error) {
	var files []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			files = append(files, p)
		}
		return err
	})
	sort.Strings(files)
	return files, err
}

// Paths lists the paths of the inputs.
func Paths(in []merge.Input) []string {
	paths := make([]string, len(in))
	for i, x := range in {
		paths[i] = x.Path
	}
	return paths
}
