//go:build !qemu

package main

// The workload: rounds over nshapes shapes (a few seconds of CPU).
const rounds, nshapes = 6000, 10000
