package pseudoprobe

import "github.com/profgen/profgen/internal/binary/sectionreader"

// Section names.
const (
	DescSection  = ".pseudo_probe_desc"
	ProbeSection = ".pseudo_probe"
)

// FormatError is a damaged section: what was wrong and at which byte.
type FormatError = sectionreader.FormatError
