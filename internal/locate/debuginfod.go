package locate

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"

	"github.com/profgen/profgen/internal/atomicfile"
)

// download returns the cached copy of the server's file of kind
// (executable, debuginfo) for build id id, fetching it from the first
// server that has it (GET URL/buildid/<id>/<kind>) into
// CacheDir/<id>/<kind>, written whole or not at all. Without servers the
// cache is not read, as elfutils' client does.
func (f *Finder) download(ctx context.Context, id, kind string) (string, error) {
	if len(f.Servers) == 0 {
		return "", fmt.Errorf("build id %s: %w in %s", id, ErrNotFound, f.Places())
	}
	cached := filepath.Join(f.CacheDir, id, kind)
	if hasBuildID(cached, id) {
		return cached, nil
	}
	var failures []string
	for _, server := range f.Servers {
		err := f.fetch(ctx, server, id, kind, cached)
		if err == nil {
			return cached, nil
		}
		if !errors.Is(err, ErrNotFound) {
			failures = append(failures, err.Error())
		}
	}
	err := fmt.Errorf("build id %s: %w in %s", id, ErrNotFound, f.Places())
	if len(failures) > 0 {
		err = fmt.Errorf("%w (%s)", err, strings.Join(failures, "; "))
	}
	return "", err
}

// fetch downloads one file of one server to dst; ErrNotFound when the
// server answers 404.
func (f *Finder) fetch(ctx context.Context, server, id, kind, dst string) error {
	url := strings.TrimRight(server, "/") + "/buildid/" + id + "/" + kind
	if path, ok := strings.CutPrefix(url, "file://"); ok {
		return copyLocal(path, id, dst)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	resp, err := f.client().Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	switch {
	case resp.StatusCode == http.StatusNotFound:
		return ErrNotFound
	case resp.StatusCode != http.StatusOK:
		return fmt.Errorf("GET %s: %s", url, resp.Status)
	}
	if err := save(resp.Body, dst); err != nil {
		return fmt.Errorf("GET %s: %w", url, err)
	}
	if !hasBuildID(dst, id) {
		os.Remove(dst)
		return fmt.Errorf("GET %s: the file served has another build id", url)
	}
	return nil
}

// copyLocal copies the file of a file:// server (a directory laid out as
// a server's URLs, which the elfutils and LLVM clients read through curl)
// to dst; ErrNotFound when there is none.
func copyLocal(path, id, dst string) error {
	src, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return ErrNotFound
	}
	if err != nil {
		return err
	}
	defer src.Close()
	if err := save(src, dst); err != nil {
		return fmt.Errorf("file://%s: %w", path, err)
	}
	if !hasBuildID(dst, id) {
		os.Remove(dst)
		return fmt.Errorf("file://%s: the file has another build id", path)
	}
	return nil
}

// save writes r to dst through a temporary file renamed into place.
func save(r io.Reader, dst string) error {
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	out, err := atomicfile.Create(dst)
	if err != nil {
		return err
	}
	defer out.Abort()
	if _, err := io.Copy(out, r); err != nil {
		return err
	}
	return out.Commit()
}

// client bounds connecting and the wait for the response's start by
// Timeout (elfutils' DEBUGINFOD_TIMEOUT); a download under way is not cut.
func (f *Finder) client() *http.Client {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.DialContext = (&net.Dialer{Timeout: f.Timeout}).DialContext
	t.ResponseHeaderTimeout = f.Timeout
	return &http.Client{Transport: t}
}
