package memprofsym

import "testing"

func TestModuleOffset(t *testing.T) {
	pie := text{start: 0x5555_0000_0000, end: 0x5555_0000_2000, preferred: 0}
	nonPIE := text{start: 0x401000, end: 0x402000, preferred: 0x401000}
	tests := []struct {
		name string
		t    text
		addr uint64
		want uint64
	}{
		{"PIE text: the load bias removed", pie, 0x5555_0000_0123, 0x123},
		{"non-PIE: unchanged", nonPIE, 0x401234, 0x401234},
		{"the segment's start itself is outside (llvm's > start)", pie, 0x5555_0000_0000, 0x5555_0000_0000},
		{"the end is inside (<= end)", pie, 0x5555_0000_2000, 0x2000},
		{"a library's address: unchanged", pie, 0x7fff_0000_1000, 0x7fff_0000_1000},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.t.moduleOffset(tc.addr); got != tc.want {
				t.Errorf("moduleOffset(%#x) = %#x, want %#x", tc.addr, got, tc.want)
			}
		})
	}
}

func TestIsRuntimeFile(t *testing.T) {
	for file, want := range map[string]bool{
		"/src/compiler-rt/lib/memprof/memprof_malloc_linux.cpp": true,
		"memprof_interceptors.cpp":                              true,
		"../memprof/memprof_new_delete.cpp":                     true,
		"memprof_allocator.cpp":                                 false,
		"main.c":                                                false,
	} {
		if got := isRuntimeFile(file); got != want {
			t.Errorf("isRuntimeFile(%q) = %v", file, got)
		}
	}
}
