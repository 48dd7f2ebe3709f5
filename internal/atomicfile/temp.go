package atomicfile

import (
	"errors"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// tempMarker is in the name of every temporary file, between the target's
// base name and the writer's PID.
const tempMarker = ".profgen-tmp-"

// live holds the temporary files being written, for RemoveOnSignal. Once
// a signal has come, mu stays locked: no temporary file is renamed into
// place after the handler removed it.
var (
	mu   sync.Mutex
	live = map[string]bool{}
)

func createTemp(dir, base string) (*os.File, error) {
	mu.Lock()
	defer mu.Unlock()
	tmp, err := os.CreateTemp(dir, "."+base+tempMarker+strconv.Itoa(os.Getpid())+"-*")
	if err == nil {
		live[tmp.Name()] = true
	}
	return tmp, err
}

func renameTemp(tmp, target string) error {
	mu.Lock()
	defer mu.Unlock()
	delete(live, tmp)
	return os.Rename(tmp, target)
}

func removeTemp(name string) {
	mu.Lock()
	defer mu.Unlock()
	delete(live, name)
	os.Remove(name)
}

// RemoveOnSignal removes the temporary files of outputs being written when
// SIGINT, SIGTERM or SIGHUP arrives, then lets the signal end the process
// as it would have. Call it once, early in main; stop undoes it.
func RemoveOnSignal() (stop func()) {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	done := make(chan struct{})
	go func() {
		select {
		case sig := <-ch:
			mu.Lock() // never unlocked: the process is ending
			for name := range live {
				os.Remove(name)
			}
			signal.Reset(sig)
			n := sig.(syscall.Signal)
			syscall.Kill(os.Getpid(), n)
			time.Sleep(time.Second) // the signal ends the process; if not:
			os.Exit(128 + int(n))
		case <-done:
		}
	}()
	return func() {
		signal.Stop(ch)
		close(done)
	}
}

// removeStale removes the temporary files for base in dir left by
// profgen processes that no longer run (killed with SIGKILL, or by a
// crash of the machine).
func removeStale(dir, base string) {
	prefix := "." + base + tempMarker
	names, _ := filepath.Glob(filepath.Join(dir, globEscape(prefix)+"*"))
	for _, name := range names {
		pidStr, _, ok := strings.Cut(strings.TrimPrefix(filepath.Base(name), prefix), "-")
		pid, err := strconv.Atoi(pidStr)
		if ok && err == nil && pid > 0 && !running(pid) {
			os.Remove(name)
		}
	}
}

func running(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

func globEscape(s string) string {
	r := strings.NewReplacer(`*`, `\*`, `?`, `\?`, `[`, `\[`, `\`, `\\`)
	return r.Replace(s)
}

// resolve follows the symlinks of path (also a dangling last one, whose
// target is then created), so that the data goes to the link's target and
// the link stays.
func resolve(path string) (string, error) {
	for range 40 {
		fi, err := os.Lstat(path)
		if err != nil || fi.Mode()&os.ModeSymlink == 0 {
			return path, nil
		}
		link, err := os.Readlink(path)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(link) {
			link = filepath.Join(filepath.Dir(path), link)
		}
		path = link
	}
	return "", fmt.Errorf("too many levels of symbolic links")
}

// stdStream returns standard output or error for the names that mean
// them; renaming a file over /dev/stdout would replace the device link,
// and writing the file behind /proc/self/fd/1 anew would lose what the
// shell redirected there.
func stdStream(path string) *os.File {
	switch filepath.Clean(path) {
	case "-", "/dev/stdout", "/dev/fd/1", "/proc/self/fd/1":
		return os.Stdout
	case "/dev/stderr", "/dev/fd/2", "/proc/self/fd/2":
		return os.Stderr
	}
	return nil
}
