package pprofout

import "testing"

// TestFunctionName: names are demangled as perf report -v prints them,
// PLT stubs included (the target demangled, then @plt).
func TestFunctionName(t *testing.T) {
	for _, tc := range []struct{ system, want string }{
		{"main", "main"},
		{"printf@plt", "printf@plt"},
		{"_Z5buildl", "build(long)"},
		{"_Znwm@plt", "operator new(unsigned long)@plt"},
		{"_ZNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEE9_M_appendEPKcm@plt",
			"std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> >::_M_append(char const*, unsigned long)@plt"},
		{"_ZN12_GLOBAL__N_13mixEl.cold", "(anonymous namespace)::mix(long) [clone .cold]"},
		{"@plt", "@plt"},
		{"_Z@plt", "_Z@plt"},
	} {
		if got := functionName(tc.system); got != tc.want {
			t.Errorf("functionName(%q) = %q, want %q", tc.system, got, tc.want)
		}
	}
}
