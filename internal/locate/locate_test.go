package locate

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// Two committed binaries and their build ids (readelf -n).
const (
	recurse  = "../../testdata/programs/bin/recurse"
	recurseI = "d36e601d7a6ca30cbc7e1633633612387e67b53e"
	wordfreq = "../../testdata/programs/bin/wordfreq"
	wordfreI = "a881e90a9481e411248fba9159ffa220b4c5815c"
)

func copyFile(t *testing.T, src, dst string) {
	t.Helper()
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}

// TestExecutableInDirs: each layout a directory may have, and what is
// not taken (another build id under the right name).
func TestExecutableInDirs(t *testing.T) {
	for _, tt := range []struct {
		name   string
		layout func(t *testing.T, dir string)
		want   string // path under dir, "" for not found
	}{
		{"perf cache", func(t *testing.T, dir string) {
			copyFile(t, recurse, filepath.Join(dir, "usr/bin/recurse", recurseI, "elf"))
			symlink(t, "../../usr/bin/recurse/"+recurseI, filepath.Join(dir, ".build-id", recurseI[:2], recurseI[2:]))
		}, ".build-id/d3/6e601d7a6ca30cbc7e1633633612387e67b53e/elf"},
		{"link to the file", func(t *testing.T, dir string) {
			copyFile(t, recurse, filepath.Join(dir, "r"))
			symlink(t, "../../r", filepath.Join(dir, ".build-id", recurseI[:2], recurseI[2:]))
		}, ".build-id/d3/6e601d7a6ca30cbc7e1633633612387e67b53e"},
		{"named by build id", func(t *testing.T, dir string) {
			copyFile(t, recurse, filepath.Join(dir, recurseI))
		}, recurseI},
		{"debuginfod cache layout", func(t *testing.T, dir string) {
			copyFile(t, recurse, filepath.Join(dir, recurseI, "executable"))
		}, recurseI + "/executable"},
		{"flat", func(t *testing.T, dir string) {
			copyFile(t, wordfreq, filepath.Join(dir, "a"))
			copyFile(t, recurse, filepath.Join(dir, "b"))
			copyFile(t, recurse, filepath.Join(dir, "c"))
			os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("not ELF"), 0o644)
		}, "b"},
		{"wrong build id under its name", func(t *testing.T, dir string) {
			copyFile(t, wordfreq, filepath.Join(dir, recurseI))
		}, ""},
		{"empty", func(t *testing.T, dir string) {}, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			tt.layout(t, dir)
			f := &Finder{Dirs: []string{filepath.Join(dir, "missing"), dir}}
			got, err := f.Executable(context.Background(), recurseI)
			if tt.want == "" {
				if !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), dir) {
					t.Errorf("got %q, %v; want ErrNotFound naming %s", got, err, dir)
				}
				return
			}
			if err != nil || got != filepath.Join(dir, tt.want) {
				t.Errorf("got %q, %v; want %s", got, err, tt.want)
			}
		})
	}
}

// TestDebuginfoInDirs: perf's debug file next to elf, and /usr/lib/debug's
// .build-id/xx/rest.debug.
func TestDebuginfoInDirs(t *testing.T) {
	dir := t.TempDir()
	copyFile(t, recurse, filepath.Join(dir, "p", recurseI, "debug"))
	symlink(t, "../../p/"+recurseI, filepath.Join(dir, ".build-id", recurseI[:2], recurseI[2:]))
	copyFile(t, wordfreq, filepath.Join(dir, ".build-id", wordfreI[:2], wordfreI[2:]+".debug"))
	f := &Finder{Dirs: []string{dir}}
	for id, want := range map[string]string{recurseI: ".build-id/d3/6e601d7a6ca30cbc7e1633633612387e67b53e/debug",
		wordfreI: ".build-id/a8/81e90a9481e411248fba9159ffa220b4c5815c.debug"} {
		if got, err := f.Debuginfo(context.Background(), id); err != nil || got != filepath.Join(dir, want) {
			t.Errorf("%s: got %q, %v; want %s", id, got, err, want)
		}
	}
}

// TestDownload: the first server that has the file gives it, kept in the
// cache and not asked for again; a 404 everywhere is ErrNotFound; a file
// with another build id is not taken.
func TestDownload(t *testing.T) {
	var requests atomic.Int32
	serve := func(files map[string]string) *httptest.Server {
		return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			requests.Add(1)
			src, ok := files[r.URL.Path]
			if !ok {
				http.Error(w, "not found", http.StatusNotFound)
				return
			}
			http.ServeFile(w, r, src)
		}))
	}
	empty := serve(nil)
	defer empty.Close()
	full := serve(map[string]string{"/buildid/" + recurseI + "/executable": recurse, "/buildid/" + wordfreI + "/executable": recurse,
		"/buildid/" + recurseI + "/debuginfo": recurse})
	defer full.Close()
	cache := t.TempDir()
	f := &Finder{Servers: []string{empty.URL, full.URL + "/"}, CacheDir: cache, Timeout: 5 * time.Second}
	got, err := f.Executable(context.Background(), recurseI)
	if want := filepath.Join(cache, recurseI, "executable"); err != nil || got != want {
		t.Fatalf("got %q, %v; want %s", got, err, want)
	}
	n := requests.Load()
	if _, err := f.Executable(context.Background(), recurseI); err != nil || requests.Load() != n {
		t.Errorf("second lookup: %v, %d more requests; want the cached file", err, requests.Load()-n)
	}
	if _, err := f.Executable(context.Background(), wordfreI); !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "another build id") {
		t.Errorf("a file with another build id: %v", err)
	}
	if got, err := f.Debuginfo(context.Background(), recurseI); err != nil || got != filepath.Join(cache, recurseI, "debuginfo") {
		t.Errorf("debuginfo: %q, %v", got, err)
	}
	if _, err := f.Debuginfo(context.Background(), wordfreI); !errors.Is(err, ErrNotFound) {
		t.Errorf("debuginfo served by none: %v", err)
	}
	if entries, _ := os.ReadDir(filepath.Join(cache, wordfreI)); len(entries) != 0 {
		t.Errorf("left in the cache: %v", entries)
	}
}

// TestFileServer: a file:// server is a directory laid out as a server's
// URLs (LLVM's compiler-rt tests point DEBUGINFOD_URLS at one).
func TestFileServer(t *testing.T) {
	srv := t.TempDir()
	copyFile(t, recurse, filepath.Join(srv, "buildid", recurseI, "debuginfo"))
	copyFile(t, recurse, filepath.Join(srv, "buildid", wordfreI, "debuginfo"))
	cache := t.TempDir()
	f := &Finder{Servers: []string{"file://" + srv}, CacheDir: cache}
	tests := []struct {
		id, want, wantErr string
	}{
		{id: recurseI, want: filepath.Join(cache, recurseI, "debuginfo")},
		{id: wordfreI, wantErr: "another build id"},
		{id: "0123abcd", wantErr: "not found"},
	}
	for _, tt := range tests {
		got, err := f.Debuginfo(context.Background(), tt.id)
		switch {
		case tt.wantErr == "" && (err != nil || got != tt.want):
			t.Errorf("%s: got %q, %v; want %s", tt.id, got, err, tt.want)
		case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
			t.Errorf("%s: got %q, %v; want an error with %q", tt.id, got, err, tt.wantErr)
		}
	}
}

func TestBadBuildID(t *testing.T) {
	f := &Finder{}
	for _, id := range []string{"", "a", "../../etc", "ABCD"} {
		if _, err := f.Executable(context.Background(), id); err == nil || errors.Is(err, ErrNotFound) {
			t.Errorf("%q: %v", id, err)
		}
	}
}

func TestFromEnv(t *testing.T) {
	t.Setenv("HOME", "/h")
	t.Setenv("DEBUGINFOD_URLS", " http://a  https://b/x ")
	t.Setenv("DEBUGINFOD_TIMEOUT", "7")
	t.Setenv("DEBUGINFOD_CACHE_PATH", "")
	t.Setenv("XDG_CACHE_HOME", "")
	f := FromEnv(nil)
	if strings.Join(f.Dirs, ",") != "/h/.debug" || strings.Join(f.Servers, ",") != "http://a,https://b/x" ||
		f.Timeout != 7*time.Second || f.CacheDir != "/h/.cache/debuginfod_client" {
		t.Errorf("FromEnv = %+v", f)
	}
	t.Setenv("XDG_CACHE_HOME", "/x")
	if f := FromEnv([]string{"d"}); f.CacheDir != "/x/debuginfod_client" || f.Dirs[0] != "d" {
		t.Errorf("XDG_CACHE_HOME: %+v", f)
	}
	t.Setenv("DEBUGINFOD_CACHE_PATH", "/c")
	if f := FromEnv(nil); f.CacheDir != "/c" {
		t.Errorf("DEBUGINFOD_CACHE_PATH: %+v", f)
	}
}
