package x86

import (
	"fmt"
	"math/rand/v2"
	"os/exec"
	"strings"
	"testing"

	"github.com/profgen/profgen/internal/testutil"
)

// TestIntelText checks instruction texts llvm-profgen-22
// --x86-asm-syntax=intel printed (branch targets) or llvm-mc-22
// -output-asm-variant=1 printed (the rest) for these bytes.
func TestIntelText(t *testing.T) {
	for _, c := range []struct {
		b    []byte
		pc   uint64
		want string
	}{
		{[]byte{0x48, 0x83, 0xec, 0x08}, 0x401000, "\tsub\trsp, 8"},
		{[]byte{0x48, 0x8b, 0x05, 0xcd, 0x3f, 0x0d, 0x00}, 0x401004, "\tmov\trax, qword ptr [rip + 868301]"},
		{[]byte{0x74, 0x02}, 0x40100e, "\tje\t0x401012"},
		{[]byte{0xff, 0xd0}, 0, "\tcall\trax"},
		{[]byte{0xff, 0x15, 0x6f, 0x3f, 0x0d, 0x00}, 0, "\tcall\tqword ptr [rip + 868207]"},
		{[]byte{0xc3}, 0, "\tret"},
		{[]byte{0x66, 0x2e, 0x0f, 0x1f, 0x84, 0, 0, 0, 0, 0}, 0, "\tnop\tword ptr cs:[rax + rax]"},
		{[]byte{0x81, 0xff, 0x19, 0xfc, 0xff, 0xff}, 0, "\tcmp\tedi, 4294966297"},
		{[]byte{0x48, 0x83, 0xe4, 0xf0}, 0, "\tand\trsp, -16"},
		{[]byte{0x48, 0x8d, 0x3d, 0x85, 0xff, 0xff, 0xff}, 0, "\tlea\trdi, [rip - 123]"},
		{[]byte{0x64, 0x48, 0x8b, 0x04, 0x25, 0x28, 0, 0, 0}, 0, "\tmov\trax, qword ptr fs:[40]"},
		{[]byte{0x48, 0x63, 0x04, 0x82}, 0, "\tmovsxd\trax, dword ptr [rdx + 4*rax]"},
		{[]byte{0x0f, 0xb7, 0xc0}, 0, "\tmovzx\teax, ax"},
		{[]byte{0x01, 0x1c, 0x0d, 0x3a, 0x6d, 0xbd, 0xc6}, 0, "\tadd\tdword ptr [1*rcx - 960664262], ebx"},
		{[]byte{0xf3, 0xa4}, 0, "\trep\t\tmovsb\tbyte ptr es:[rdi], byte ptr [rsi]"},
		{[]byte{0xf3, 0x48, 0xab}, 0, "\trep\t\tstosq\tqword ptr es:[rdi], rax"},
		{[]byte{0x0f, 0x18, 0x08}, 0, "\tprefetcht0\tbyte ptr [rax]"},
		{[]byte{0xdb, 0x28}, 0, "\tfld\ttbyte ptr [rax]"},
		{[]byte{0xdc, 0xe9}, 0, "\tfsub\tst(1), st"},
		{[]byte{0x4c, 0x87, 0xfe}, 0, "\txchg\tr15, rsi"},
		{[]byte{0xcb}, 0, "\tretf"},
		{[]byte{0x48, 0xcb}, 0, "\tretfq"},
		{[]byte{0xff, 0x28}, 0, "\tjmp\t[rax]"},
		{[]byte{0x48, 0xff, 0x28}, 0, "\tljmp\t[rax]"},
		{[]byte{0x0f, 0xb2, 0x02}, 0, "\tlss\teax, [rdx]"},
		{[]byte{0xc4, 0x22, 0x3d, 0x90, 0x14, 0x09}, 0, "\tvpgatherdd\tymm10, dword ptr [rcx + ymm9], ymm8"},
		{[]byte{0x62, 0xf1, 0x6d, 0xc9, 0xfe, 0xd9}, 0, "\tvpaddd\tzmm3 {k1} {z}, zmm2, zmm1"},
		{[]byte{0x62, 0xf1, 0x74, 0x58, 0x58, 0x00}, 0, "\tvaddps\tzmm0, zmm1, dword ptr [rax]{1to16}"},
		{[]byte{0x66, 0x4c, 0x0f, 0x38, 0xf6, 0xeb}, 0, "\tadcx\tr13, rbx"},
		{[]byte{0xf3, 0x0f, 0x1e, 0xfa}, 0, "\tendbr64"},
		{[]byte{0xf0}, 0, "\tlock"},
		{[]byte{0xcc}, 0, "\tint3"},
		{[]byte{0x0f, 0xff}, 0, "\t<unknown>"},
	} {
		if got := IntelText(c.b, c.pc); got != c.want {
			t.Errorf("IntelText(% x) = %q, want %q", c.b, got, c.want)
		}
	}
}

// FuzzIntelText checks IntelText on arbitrary bytes as FuzzText checks
// Text: no panic, text for what Decode decodes, "<unknown>" for the rest.
func FuzzIntelText(f *testing.F) {
	for _, b := range [][]byte{
		{0xf3, 0x48, 0xab}, {0xdb, 0x28}, {0x01, 0x1c, 0x0d, 0x3a, 0x6d, 0xbd, 0xc6}, {0xc4, 0x22, 0x3d, 0x90, 0x14, 0x09},
		{0x62, 0xf1, 0x74, 0x58, 0x58, 0x00}, {0x48, 0xff, 0x28}, {0x66, 0x4c, 0x0f, 0x38, 0xf6, 0xeb},
	} {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		text := IntelText(b, 0x1000)
		if _, _, ok := Decode(b); ok == (text == "\t<unknown>") || text == "" || text[0] != '\t' {
			t.Fatalf("IntelText(% x) = %q, decoded %v", b, text, ok)
		}
	})
}

// TestIntelTextMatchesLLVM: on random instructions (no branches: llvm-mc
// prints their targets relative), wherever Text gives llvm-mc-22's AT&T
// text, IntelText gives its Intel text: the Intel printer is as faithful
// as the AT&T one.
func TestIntelTextMatchesLLVM(t *testing.T) {
	mc := testutil.Tool(t, "llvm-mc-22")
	cases := randomInsts(rand.New(rand.NewPCG(5, 6)), 20000)
	att, intel := mcTexts(t, mc, cases, 0), mcTexts(t, mc, cases, 1)
	compared, bad := 0, 0
	for i, c := range cases {
		if att[i] == "" || Text(c, 0) != att[i] {
			continue
		}
		compared++
		if got := IntelText(c, 0); got != intel[i] {
			if bad++; bad <= 20 {
				t.Errorf("% x: %q, llvm-mc-22 %q", c, got, intel[i])
			}
		}
	}
	t.Logf("%d of %d random instructions printed as llvm-mc-22 prints them in AT&T, %d of those differ in Intel", compared, len(cases), bad)
}

// randomInsts makes n instructions Decode decodes, of random bytes after
// an optional prefix, REX and escape or VEX/EVEX byte; branches, int3 and
// ud2 (the separators of mcTexts) left out.
func randomInsts(r *rand.Rand, n int) [][]byte {
	prefixes := []byte{0x66, 0xf2, 0xf3, 0x2e, 0x64, 0xf0}
	escapes := [][]byte{nil, nil, {0x0f}, {0x0f, 0x38}, {0xc5}, {0xc4}, {0x62}}
	var out [][]byte
	for len(out) < n {
		var b []byte
		if r.IntN(3) == 0 {
			b = append(b, prefixes[r.IntN(len(prefixes))])
		}
		if r.IntN(2) == 0 {
			b = append(b, 0x40|byte(r.IntN(16)))
		}
		b = append(b, escapes[r.IntN(len(escapes))]...)
		for k := 0; k < 12; k++ {
			b = append(b, byte(r.Uint32()))
		}
		size, _, ok := Decode(b)
		text := Text(b[:size], 0)
		if !ok || strings.Contains(text, "0x") || strings.Contains(text, "int3") || strings.Contains(text, "ud2") {
			continue
		}
		out = append(out, b[:size])
	}
	return out
}

// mcTexts are llvm-mc's texts of the cases in asm variant v (0 AT&T, 1
// Intel), comments cut; "" where it did not decode a case as one
// instruction. Each case is followed by int3s, which resynchronize after
// an instruction longer than ours, and a ud2 that ends it.
func mcTexts(t *testing.T, mc string, cases [][]byte, v int) []string {
	t.Helper()
	var in strings.Builder
	for _, c := range cases {
		for _, x := range c {
			fmt.Fprintf(&in, "0x%02x ", x)
		}
		in.WriteString(strings.Repeat("0xcc ", 16) + "0x0f 0x0b\n")
	}
	cmd := exec.Command(mc, "--disassemble", fmt.Sprintf("-output-asm-variant=%d", v))
	cmd.Stdin = strings.NewReader(in.String())
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s: %v", mc, err)
	}
	var texts, group []string
	for _, l := range strings.Split(string(out), "\n") {
		if !strings.HasPrefix(l, "\t") || strings.HasPrefix(l, "\t.text") || l == "\tint3" {
			continue
		}
		if l == "\tud2" {
			text := ""
			if len(group) == 1 {
				text = group[0]
			}
			texts, group = append(texts, text), nil
			continue
		}
		if i := strings.Index(l, "#"); i > 0 {
			l = strings.TrimRight(l[:i], " ")
		}
		group = append(group, l)
	}
	if len(texts) != len(cases) {
		t.Fatalf("%s: %d texts for %d cases", mc, len(texts), len(cases))
	}
	return texts
}
