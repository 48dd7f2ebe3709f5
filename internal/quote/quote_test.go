package quote

import (
	"strings"
	"testing"
)

func TestQuote(t *testing.T) {
	long := strings.Repeat("é", 100) // 200 bytes
	for _, tt := range []struct{ in, want string }{
		{"short", `"short"`},
		{"a\x01b", `"a\x01b"`},
		{long, `"` + strings.Repeat("é", 40) + `"... (200 bytes)`},
		{"x" + long, `"x` + strings.Repeat("é", 39) + `"... (201 bytes)`},
	} {
		if got := String(tt.in); got != tt.want {
			t.Errorf("String(%.20q...) = %s, want %s", tt.in, got, tt.want)
		}
		if got := Bytes([]byte(tt.in)); got != tt.want {
			t.Errorf("Bytes(%.20q...) = %s, want %s", tt.in, got, tt.want)
		}
	}
}
