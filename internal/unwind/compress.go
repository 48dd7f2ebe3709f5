package unwind

import "slices"

// CompressRecursion removes adjacent repeats of frame sequences from a
// context, for sequence lengths 1 up to maxLen (-1: any length), shortest
// first, as llvm-profgen's --compress-recursion: [a b b b c] becomes
// [a b c], [a b c b c d] becomes [a b c d]. Repeats are of exact frames
// (the same call site), not just of functions. The result reuses ctx.
func CompressRecursion[T comparable](ctx []T, maxLen int) []T {
	limit := len(ctx) / 2
	if maxLen >= 0 {
		limit = min(limit, maxLen)
	}
	for k := 1; k <= limit; k++ {
		ctx = dropRepeats(ctx, k)
		limit = min(limit, len(ctx)/2)
	}
	return ctx
}

// dropRepeats removes, left to right, every block of k frames that repeats
// the k frames kept before it.
func dropRepeats[T comparable](ctx []T, k int) []T {
	out := ctx[:k] // in place: out never overtakes the frames still read
	s := 0         // the window compared: ctx[s:s+k] (equal to out's last k) and ctx[s+k:s+2k]
	for s+2*k <= len(ctx) {
		if slices.Equal(ctx[s:s+k], ctx[s+k:s+2*k]) {
			s += k
			continue
		}
		out = append(out, ctx[s+k])
		s++
	}
	return append(out, ctx[s+k:]...)
}

// TrimContext keeps the innermost depth frames of a context (depth < 0:
// all), as --csprof-max-context-depth.
func TrimContext[T any](ctx []T, depth int) []T {
	if depth < 0 || depth >= len(ctx) {
		return ctx
	}
	return ctx[len(ctx)-depth:]
}
