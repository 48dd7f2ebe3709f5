package profmerge

import (
	"fmt"
	"io"
	"regexp"
	"strconv"

	"github.com/profgen/profgen/internal/instrprof"
	"github.com/profgen/profgen/internal/sampleprof"
)

// nameFilter is llvm-profdata merge's --function and --no-function: a
// name is kept when it matches the first (if given) and not the second;
// an MD5 profile's names also match the decimal MD5 of the pattern.
type nameFilter struct {
	keep, drop       *regexp.Regexp
	keepMD5, dropMD5 string
}

func newNameFilter(keep, drop string) (*nameFilter, error) {
	if keep == "" && drop == "" {
		return nil, nil
	}
	f := &nameFilter{}
	var err error
	if f.keep, f.keepMD5, err = compileFilter("--function", keep); err != nil {
		return nil, err
	}
	if f.drop, f.dropMD5, err = compileFilter("--no-function", drop); err != nil {
		return nil, err
	}
	return f, nil
}

// compileFilter compiles pattern; a name that looks MSVC-mangled ('?'
// first) is taken literally, as llvm does.
func compileFilter(flag, pattern string) (*regexp.Regexp, string, error) {
	if pattern == "" {
		return nil, "", nil
	}
	expr := pattern
	if pattern[0] == '?' && msvcName.MatchString(pattern) {
		expr = regexp.QuoteMeta(pattern)
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		return nil, "", fmt.Errorf("%s=%s: %w", flag, pattern, err)
	}
	return re, strconv.FormatUint(sampleprof.MD5Name(pattern), 10), nil
}

var msvcName = regexp.MustCompile(`[?@$_0-9A-Za-z]+`)

func (f *nameFilter) keeps(name string) bool {
	if f.drop != nil && (f.drop.MatchString(name) || name == f.dropMD5) {
		return false
	}
	return f.keep == nil || f.keep.MatchString(name) || name == f.keepMD5
}

// filterInstr applies f to p and says so as llvm-profdata does.
func (f *nameFilter) filterInstr(stderr io.Writer, p *instrprof.Profile) {
	if f == nil {
		return
	}
	names, removed := p.Filter(f.keeps)
	fmt.Fprintf(stderr, "%d of %d functions in the original profile are filtered.\n", removed, names)
}

// filterSample applies f to the top-level functions of p.
func (f *nameFilter) filterSample(stderr io.Writer, p *sampleprof.Profile) {
	if f == nil {
		return
	}
	n := len(p.Functions)
	for name := range p.Functions {
		if !f.keeps(name) {
			delete(p.Functions, name)
		}
	}
	fmt.Fprintf(stderr, "%d of %d functions in the original profile are filtered.\n", n-len(p.Functions), n)
}
