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
	}{
		{kindLBR, []string{"ab12"}, "lbr/ab12", []string{"ab12"}},
		{kindStacks, []string{"ff", "00", "ff"}, "stacks/00+ff", []string{"00", "ff"}},
		{kindStacks, []string{"", "0a"}, "stacks/-+0a", []string{"", "0a"}},
		{kindInstr, []string{""}, "instr/-", []string{""}},
	} {
		k := newKey(tc.kind, tc.ids)
		if k.String() != tc.want {
			t.Errorf("newKey(%s, %q) = %s, want %s", tc.kind, tc.ids, k, tc.want)
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
