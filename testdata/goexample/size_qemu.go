//go:build qemu

package main

// The workload traced instruction by instruction under qemu-aarch64
// (scripts/testdata.d/80-arm64.sh: go build -tags qemu for GOARCH=arm64),
// 4 M instructions, a few seconds to trace.
const rounds, nshapes = 30, 3000
