package pipeline

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/profgen/profgen/internal/atomicfile"
)

// Files of Beam's filesystems (gs://, s3://, ... registered by import) are
// copied to local temporary files for profgen's readers, which take paths;
// outputs are written locally (atomicfile) and copied to such a filesystem
// when -o names one.

// isRemote reports whether path names a file of a filesystem other than
// the local one.
func isRemote(path string) bool { return strings.Contains(path, "://") }

// localCopy returns a local path holding the file at path, and what
// removes the copy when path was remote.
func localCopy(ctx context.Context, path string) (string, func(), error) {
	if !isRemote(path) {
		return path, func() {}, nil
	}
	fs, err := filesystem.New(ctx, path)
	if err != nil {
		return "", nil, err
	}
	defer fs.Close()
	r, err := fs.OpenRead(ctx, path)
	if err != nil {
		return "", nil, err
	}
	defer r.Close()
	tmp, err := os.CreateTemp("", "profgen-fleet-input-*-"+filepath.Base(path))
	if err != nil {
		return "", nil, err
	}
	defer tmp.Close()
	done := func() { os.Remove(tmp.Name()) }
	if _, err := io.Copy(tmp, r); err != nil {
		done()
		return "", nil, err
	}
	return tmp.Name(), done, nil
}

// writeLocal writes data whole or not at all at path.
func writeLocal(path string, data []byte) error {
	f, err := atomicfile.Create(path)
	if err != nil {
		return err
	}
	defer f.Abort()
	if _, err := f.Write(data); err != nil {
		return err
	}
	return f.Commit()
}

// publish copies the local file at local to dst on its filesystem; an
// object store makes the object visible when the writer closes.
func publish(ctx context.Context, local, dst string) error {
	fs, err := filesystem.New(ctx, dst)
	if err != nil {
		return err
	}
	defer fs.Close()
	in, err := os.Open(local)
	if err != nil {
		return err
	}
	defer in.Close()
	w, err := fs.OpenWrite(ctx, dst)
	if err != nil {
		return err
	}
	if _, err := io.Copy(w, in); err != nil {
		w.Close()
		return err
	}
	return w.Close()
}
