// Package perfscript reads the text that `perf script` prints, as a stream.
//
// In: perf script text in any of the layouts perf prints (default leading
// fields `comm pid/tid [cpu] time: [period] event:`, `-F ip,brstack`,
// `-F pid,ip,brstack`, `-F pid,ip,sym,dso`, with or without
// `--show-mmap-events --show-task-events`, with `-g` call chains), and
// llvm-profgen's pre-aggregated form (a repeat count line before a sample).
// Out: one record.Record at a time from a Scanner: MMAP/MMAP2, FORK, EXIT, COMM and
// samples (IP, LBR branch stack, call chain). Memory does not depend on the
// size of the input: a Record's slices are reused by the next call to Next.
package perfscript
