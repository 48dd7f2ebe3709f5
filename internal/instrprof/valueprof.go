package instrprof

import "encoding/binary"

// DecodeValueData decodes one ValueProfData block (u32 TotalSize, u32
// NumValueKinds, then per kind a record {u32 Kind, u32 NumValueSites,
// u8 SiteCount[n] padded to 8, {u64 Value, u64 Count}...}) into rec.Sites,
// mapping values through remap (may be nil), the slices taken from arena
// (nil: allocated). It returns the block size.
func DecodeValueData(d *Decoder, rec *Record, maxKind int, remap func(kind int, v uint64) uint64, arena *ValueArena) int {
	start := d.Off
	total := d.U32("value data size")
	kinds := d.U32("value kind count")
	if d.Err() != nil {
		return 0
	}
	if total < 8 || total%8 != 0 || int(total) > d.Remaining()+8 {
		d.FailAt(d.Base+int64(start), "bad value data size %d (%d bytes left)", total, d.Remaining()+8)
		return 0
	}
	if kinds > uint32(maxKind)+1 {
		d.FailAt(d.Base+int64(start), "bad value kind count %d", kinds)
		return 0
	}
	end := start + int(total)
	for i := uint32(0); i < kinds && d.Err() == nil; i++ {
		decodeValueRecord(d, rec, maxKind, remap, arena)
	}
	if d.Err() == nil && d.Off > end {
		d.FailAt(d.Base+int64(start), "value records overrun their size %d", total)
	}
	d.Off = max(d.Off, min(end, len(d.Buf)))
	return int(total)
}

func decodeValueRecord(d *Decoder, rec *Record, maxKind int, remap func(int, uint64) uint64, arena *ValueArena) {
	at := d.Pos()
	kind := d.U32("value kind")
	nsites := d.U32("value site count")
	counts := d.Bytes(int(nsites), "value site counts")
	d.Skip(pad8(8+int(nsites)), "value site padding")
	if d.Err() != nil {
		return
	}
	if int(kind) > maxKind {
		d.FailAt(at, "bad value kind %d", kind)
		return
	}
	if len(rec.Sites[kind]) > 0 {
		d.FailAt(at, "value kind %d given twice", kind)
		return
	}
	sites := arena.sites(int(nsites))
	for s, n := range counts {
		if n == 0 {
			continue
		}
		raw := d.Bytes(16*int(n), "values")
		if raw == nil {
			return
		}
		vs := arena.values(int(n))
		order := d.order()
		for i := range vs {
			v := order.Uint64(raw[16*i:])
			if remap != nil {
				v = remap(int(kind), v)
			}
			vs[i] = Value{v, order.Uint64(raw[16*i+8:])}
		}
		sites[s] = vs
	}
	rec.Sites[kind] = sites
}

// ValueArena hands out the slices DecodeValueData fills from blocks it
// keeps; Reset makes them all reusable at once, so that a reader decoding
// file after file allocates nothing once warm. A nil arena allocates.
type ValueArena struct {
	valueBlock []Value
	siteBlock  [][]Value
}

// Reset makes every slice handed out reusable: they must no longer be used.
func (a *ValueArena) Reset() {
	if a != nil {
		a.valueBlock, a.siteBlock = a.valueBlock[:0], a.siteBlock[:0]
	}
}

// arenaBlock is the least number of elements an arena block holds.
const arenaBlock = 1024

// values returns n values (to be overwritten).
func (a *ValueArena) values(n int) []Value {
	if a == nil {
		return make([]Value, n)
	}
	a.valueBlock = grow(a.valueBlock, n)
	return take(&a.valueBlock, n)
}

// sites returns n empty sites.
func (a *ValueArena) sites(n int) [][]Value {
	if a == nil {
		return make([][]Value, n)
	}
	a.siteBlock = grow(a.siteBlock, n)
	s := take(&a.siteBlock, n)
	clear(s)
	return s
}

// grow returns b, or a new empty block when b has no room for n more.
// Slices handed out of the old block stay valid.
func grow[T any](b []T, n int) []T {
	if len(b)+n <= cap(b) {
		return b
	}
	return make([]T, 0, max(2*cap(b), n, arenaBlock))
}

// take returns the next n elements of *b, capped so that appending to
// them cannot reach the next ones.
func take[T any](b *[]T, n int) []T {
	i := len(*b)
	*b = (*b)[:i+n]
	return (*b)[i : i+n : i+n]
}

func pad8(n int) int { return (8 - n%8) % 8 }

// ValueDataSize is the size of rec's encoded ValueProfData block.
func ValueDataSize(rec *Record) int {
	size := 8
	for k := range rec.Sites {
		n := len(rec.Sites[k])
		if n == 0 {
			continue
		}
		size += 8 + n + pad8(8+n)
		for _, vs := range rec.Sites[k] {
			size += 16 * min(len(vs), 255)
		}
	}
	return size
}

// AppendValueData appends rec's ValueProfData block (little-endian).
func AppendValueData(b []byte, rec *Record) []byte {
	kinds := 0
	for k := range rec.Sites {
		if len(rec.Sites[k]) > 0 {
			kinds++
		}
	}
	b = binary.LittleEndian.AppendUint32(b, uint32(ValueDataSize(rec)))
	b = binary.LittleEndian.AppendUint32(b, uint32(kinds))
	for k, sites := range rec.Sites {
		if len(sites) == 0 {
			continue
		}
		b = binary.LittleEndian.AppendUint32(b, uint32(k))
		b = binary.LittleEndian.AppendUint32(b, uint32(len(sites)))
		for _, vs := range sites {
			b = append(b, byte(min(len(vs), 255)))
		}
		b = append(b, make([]byte, pad8(8+len(sites)))...)
		for _, vs := range sites {
			for _, v := range vs[:min(len(vs), 255)] {
				b = binary.LittleEndian.AppendUint64(b, v.Value)
				b = binary.LittleEndian.AppendUint64(b, v.Count)
			}
		}
	}
	return b
}
