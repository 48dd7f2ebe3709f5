package binary

import "testing"

func TestParseProducer(t *testing.T) {
	tests := []struct {
		producer string
		want     Compiler
	}{
		{"GNU C17 12.2.0 -mtune=generic -march=x86-64 -g -O2", Compiler{"gcc", 12}},
		{"GNU C++17 13.1.0 -O2", Compiler{"gcc", 13}},
		{"GNU C11 15.0.1 20250301 (experimental) -O2", Compiler{"gcc", 15}},
		{"GNU AS 2.40", Compiler{}},
		{"Debian clang version 19.1.7 (3~deb12u1)", Compiler{"clang", 19}},
		{"clang version 22.0.0git (https://github.com/llvm/llvm-project abc)", Compiler{"clang", 22}},
		{"Go cmd/compile go1.22.1", Compiler{}},
		{"", Compiler{}},
	}
	for _, tt := range tests {
		if got := ParseProducer(tt.producer); got != tt.want {
			t.Errorf("ParseProducer(%q) = %+v, want %+v", tt.producer, got, tt.want)
		}
	}
}

// TestCompiler reads the producers of the checked-in test programs.
func TestCompiler(t *testing.T) {
	tests := []struct {
		path string
		want Compiler
	}{
		{"../../testdata/programs/bin/wordfreq-gcc", Compiler{"gcc", 12}},
		{"../../testdata/programs/bin/wordfreq", Compiler{"clang", 19}},
	}
	for _, tt := range tests {
		f, err := Open(tt.path, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if got := f.Compiler(); got != tt.want {
			t.Errorf("%s: %+v, want %+v", tt.path, got, tt.want)
		}
		f.Close()
	}
}
