package atomicfile

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func TestCommitAndAbort(t *testing.T) {
	tests := []struct {
		name   string
		commit bool
		want   string // content of the target afterwards
	}{
		{"commit replaces", true, "new"},
		{"abort keeps old", false, "old"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "out.prof")
			if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
				t.Fatal(err)
			}
			f, err := Create(path)
			if err != nil {
				t.Fatal(err)
			}
			f.WriteString("new")
			if tt.commit {
				if err := f.Commit(); err != nil {
					t.Fatal(err)
				}
			}
			f.Abort()
			got, _ := os.ReadFile(path)
			if string(got) != tt.want {
				t.Errorf("content = %q, want %q", got, tt.want)
			}
			entries, _ := os.ReadDir(dir)
			if len(entries) != 1 {
				t.Errorf("directory holds %d files, want 1 (no temp left)", len(entries))
			}
		})
	}
}

// TestSpecialFile: a device such as /dev/null is written in place, never
// replaced by a renamed regular file.
func TestSpecialFile(t *testing.T) {
	fi, err := os.Stat(os.DevNull)
	if err != nil || fi.Mode().IsRegular() {
		t.Skip("no device /dev/null")
	}
	f, err := Create(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("data")
	if err := f.Commit(); err != nil {
		t.Fatal(err)
	}
	fi, err = os.Stat(os.DevNull)
	if err != nil || fi.Mode().IsRegular() {
		t.Fatalf("/dev/null was replaced: %v %v", fi.Mode(), err)
	}
}

// TestSymlink: writing through a symlink (also a dangling one) writes its
// target and keeps the link.
func TestSymlink(t *testing.T) {
	for _, dangling := range []bool{false, true} {
		dir := t.TempDir()
		target := filepath.Join(dir, "real.prof")
		if !dangling {
			os.WriteFile(target, []byte("old"), 0o644)
		}
		link := filepath.Join(dir, "link.prof")
		if err := os.Symlink("real.prof", link); err != nil {
			t.Fatal(err)
		}
		f, err := Create(link)
		if err != nil {
			t.Fatal(err)
		}
		f.WriteString("new")
		if err := f.Commit(); err != nil {
			t.Fatal(err)
		}
		fi, err := os.Lstat(link)
		got, _ := os.ReadFile(target)
		if err != nil || fi.Mode()&os.ModeSymlink == 0 || string(got) != "new" {
			t.Errorf("dangling=%v: link mode %v, target holds %q; want the link kept and \"new\"", dangling, fi.Mode(), got)
		}
	}
}

// TestStdStreams: the names of standard output are written in place.
func TestStdStreams(t *testing.T) {
	for _, name := range []string{"-", "/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"} {
		f, err := Create(name)
		if err != nil {
			t.Fatal(err)
		}
		if f.tmp != nil || f.direct != nil {
			t.Errorf("%s: not written to standard output directly", name)
		}
		f.Abort()
	}
}

// TestFIFO: a named pipe is written in place.
func TestFIFO(t *testing.T) {
	path := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Skip(err)
	}
	got := make(chan []byte)
	go func() {
		b, _ := os.ReadFile(path)
		got <- b
	}()
	f, err := Create(path)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("data")
	if err := f.Commit(); err != nil {
		t.Fatal(err)
	}
	if b := <-got; string(b) != "data" {
		t.Errorf("read %q from the FIFO", b)
	}
}

// TestRemoveStale: Create removes the temporary files of processes that
// no longer run, and only those.
func TestRemoveStale(t *testing.T) {
	dir := t.TempDir()
	stale := filepath.Join(dir, ".out.prof"+tempMarker+"999999999-1")
	mine := filepath.Join(dir, fmt.Sprintf(".out.prof%s%d-2", tempMarker, os.Getpid()))
	for _, p := range []string{stale, mine} {
		os.WriteFile(p, nil, 0o644)
	}
	f, err := Create(filepath.Join(dir, "out.prof"))
	if err != nil {
		t.Fatal(err)
	}
	f.Abort()
	if _, err := os.Stat(stale); err == nil {
		t.Error("stale temporary file kept")
	}
	if _, err := os.Stat(mine); err != nil {
		t.Error("a running process's temporary file removed")
	}
}

func TestCheckWritable(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	os.WriteFile(file, nil, 0o644)
	ro := filepath.Join(dir, "ro")
	os.Mkdir(ro, 0o555)
	tests := []struct {
		path string
		want string // "" when writable
	}{
		{filepath.Join(dir, "out.prof"), ""},
		{file, ""},
		{"-", ""},
		{os.DevNull, ""},
		{filepath.Join(dir, "missing", "out.prof"), "does not exist"},
		{filepath.Join(file, "out.prof"), "is not a directory"},
		{dir, "is a directory"},
		{filepath.Join(ro, "out.prof"), "permission denied"},
	}
	for _, tt := range tests {
		if tt.path == filepath.Join(ro, "out.prof") && os.Geteuid() == 0 {
			continue // root writes anywhere
		}
		err := CheckWritable(tt.path)
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%s: %v", tt.path, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want) || !errors.Is(err, ErrNotWritable)):
			t.Errorf("%s: error %v, want %q", tt.path, err, tt.want)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 2 {
		t.Errorf("CheckWritable left files: %v", entries)
	}
}
