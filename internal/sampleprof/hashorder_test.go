package sampleprof

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/profgen/profgen/internal/testutil"
)

// libstdcxxOrder is a C++ program printing the iteration order of an
// std::unordered_map<uint64_t, int> filled with the keys on stdin, in
// order: the reference for hashOrder.
const libstdcxxOrder = `#include <unordered_map>
#include <vector>
#include <cstdio>
#include <cstdint>
int main() {
  std::unordered_map<uint64_t, int> m;
  unsigned long long k;
  int i = 0;
  while (scanf("%llu", &k) == 1) m.emplace(k, i++);
  for (auto &e : m) printf("%d\n", e.second);
}
`

// TestHashOrderMatchesLibstdcxx compares hashOrder with a real
// std::unordered_map on random keys, sizes across several rehashes.
func TestHashOrderMatchesLibstdcxx(t *testing.T) {
	cxx := testutil.Tool(t, "g++")
	dir := t.TempDir()
	src, bin := filepath.Join(dir, "order.cc"), filepath.Join(dir, "order")
	if err := os.WriteFile(src, []byte(libstdcxxOrder), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(cxx, "-O1", "-o", bin, src).CombinedOutput(); err != nil {
		t.Skipf("g++ cannot build the reference: %v\n%s", err, out)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, 2, 12, 13, 14, 30, 100, 600, 3000, 25000} {
		keys := make([]uint64, n)
		var in strings.Builder
		for i := range keys {
			keys[i] = rng.Uint64()
			if i%7 == 3 {
				keys[i] %= 1000 // small keys: crowded buckets
				keys[i] += uint64(i) * 1000
			}
			fmt.Fprintln(&in, keys[i])
		}
		cmd := exec.Command(bin)
		cmd.Stdin = strings.NewReader(in.String())
		want, err := cmd.Output()
		if err != nil {
			t.Fatal(err)
		}
		order, ok := hashOrder(keys)
		if !ok {
			t.Fatalf("%d keys: no order", n)
		}
		var got bytes.Buffer
		for _, i := range order {
			fmt.Fprintln(&got, i)
		}
		if !bytes.Equal(got.Bytes(), want) {
			t.Errorf("%d keys: order differs from libstdc++'s", n)
		}
	}
}

// probeText is a probe text profile of n functions named from prefix,
// one body line each; counts and checksums from rng.
func probeText(rng *rand.Rand, prefix string, n int) string {
	var b strings.Builder
	for i := range n {
		c := 1 + rng.Uint64N(1000)
		fmt.Fprintf(&b, "%s%d:%d:%d\n 1: %d\n !CFGChecksum: %d\n", prefix, i, c, c, c, 1+uint64(i)%7)
	}
	return b.String()
}

// TestMetadataOrderMatchesLLVM merges probe profiles of hundreds of
// functions (several rehashes of LLVM's map), some functions in both, and
// compares the extbinary bytes, the function metadata section in LLVM's
// hash map order included, with llvm-profdata-19's.
func TestMetadataOrderMatchesLLVM(t *testing.T) {
	llvmProfdata(t)
	rng := rand.New(rand.NewPCG(3, 4))
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.txt"), filepath.Join(dir, "b.txt")
	os.WriteFile(a, []byte(probeText(rng, "f", 300)), 0o644)
	os.WriteFile(b, []byte(probeText(rng, "f", 150)+probeText(rng, "g", 700)), 0o644)
	dst := NewProfile()
	for _, in := range []string{a, b} {
		if err := Merge(dst, readTestFile(t, in), 1); err != nil {
			t.Fatal(err)
		}
	}
	for _, md5 := range []bool{false, true} {
		flags := []string{"--extbinary"}
		if md5 {
			flags = append(flags, "--use-md5")
		}
		want := llvmMerge(t, append(flags, a, b)...)
		if got := encode(t, dst, FormatExtBinary, WriteOptions{UseMD5: md5}); !bytes.Equal(got, want) {
			t.Errorf("%v: bytes differ from llvm-profdata-19 merge", flags)
		}
	}
}
