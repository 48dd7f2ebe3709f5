package sampleprof

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
)

// Read reads a sample profile in the text, binary, extbinary or GCC
// (gcov) format, told apart by the first bytes. Text is read as a stream;
// a binary profile is read whole, its sections being addressed by offset.
func Read(r io.Reader) (*Profile, error) {
	br := bufio.NewReaderSize(r, 1<<16)
	head, err := br.Peek(16)
	if err != nil && err != io.EOF {
		return nil, err
	}
	// head is only valid until the next read of br: the format is told
	// once, before reading on.
	switch format := Detect(head); format {
	case FormatText:
		return ReadText(br)
	case FormatBinary, FormatExtBinary, FormatGCC:
		data, err := io.ReadAll(br)
		if err != nil {
			return nil, err
		}
		if format == FormatGCC {
			return ReadGCC(data)
		}
		return ReadBinary(data)
	}
	return nil, &FormatError{Err: errors.New("not an LLVM sample profile (text, binary, extbinary or gcc)")}
}

// ReadFile reads the sample profile in the file path; errors name it.
func ReadFile(path string) (*Profile, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	p, err := Read(f)
	if err != nil {
		return nil, withFile(err, path)
	}
	return p, nil
}

// Write writes p in format with the default options.
func Write(w io.Writer, p *Profile, format Format) error {
	return WriteOptions{}.Write(w, p, format)
}

// Write writes p in format.
func (o WriteOptions) Write(w io.Writer, p *Profile, format Format) error {
	if o.UseMD5 && format != FormatExtBinary {
		return fmt.Errorf("MD5 names need the extbinary format, not %v", format)
	}
	switch format {
	case FormatText:
		return writeText(w, p, o.SplitLayout)
	case FormatBinary:
		return WriteBinary(w, p)
	case FormatExtBinary:
		return WriteExtBinary(w, p, o)
	case FormatGCC:
		return WriteGCC(w, p, o.GCC)
	}
	return fmt.Errorf("cannot write sample profile format %v", format)
}
