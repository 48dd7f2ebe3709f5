package sampleprof

import (
	"bytes"
	"testing"
)

// TestFlatten: testdata/inline.txt flattened as llvm-profdata-19 merge
// --convert-sample-profile-layout=flat writes it.
func TestFlatten(t *testing.T) {
	p, err := ReadFile("testdata/inline.txt")
	if err != nil {
		t.Fatal(err)
	}
	var got bytes.Buffer
	if err := WriteText(&got, Flatten(p)); err != nil {
		t.Fatal(err)
	}
	want := `main:800:10
 1: 10
 2.1: 20 bar:15 foo:5
 3: 140 inl:100 zzz:40
foo:500:100
 1: 100
 5: 400
inl:300:100
 1: 100
 2: 200 baz:50
 4: 60 deeper:60
deeper:60:60
 1: 60
zzz:40:40
 1: 40
`
	if got.String() != want {
		t.Errorf("flattened:\n%s\nwant:\n%s", got.String(), want)
	}
}
