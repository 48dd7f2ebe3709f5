package pipeline

import (
	"slices"
	"testing"
)

func TestKeys(t *testing.T) {
	for _, tc := range []struct {
		kind     string
		ids      []string
		want     string
		buildIDs []string
		file     string // of extension text
	}{
		{kindLBR, []string{"ab12"}, "lbr/ab12", []string{"ab12"}, "lbr/ab12.text"},
		{kindCS, []string{"ab12"}, "cs/ab12", []string{"ab12"}, "cs/ab12.text"},
		{kindStacks, []string{"ab12"}, "stacks/ab12", []string{"ab12"}, "stacks/ab12.text"},
		{kindStacks, []string{"ff", "00", "ff"}, "stacks/00+ff", []string{"00", "ff"}, "stacks/00+ff.text"},
		{kindStacks, []string{"", "0a"}, "stacks/-+0a", []string{"", "0a"}, "stacks/-+0a.text"},
		{kindInstr, []string{""}, "instr/-", []string{""}, "instr/-.text"},
	} {
		k := newKey(tc.kind, tc.ids)
		if k.String() != tc.want {
			t.Errorf("newKey(%s, %q) = %s, want %s", tc.kind, tc.ids, k, tc.want)
		}
		if f := k.file(k.name(), "text"); f != tc.file {
			t.Errorf("%s: file %s, want %s", k, f, tc.file)
		}
		back, err := parseKey(k.String())
		if err != nil || back.String() != tc.want || !slices.Equal(back.buildIDs(), tc.buildIDs) {
			t.Errorf("parseKey(%s) = %v (build ids %q), %v", tc.want, back, back.buildIDs(), err)
		}
	}
	if _, err := parseKey("lbr"); err == nil {
		t.Error("parseKey(lbr): no error")
	}
}
