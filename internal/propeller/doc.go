// Package propeller writes the two profiles of LLVM's Propeller: the cc
// profile clang reads with -fbasic-block-sections=list=FILE (each hot
// function's blocks in clusters, in layout order; blocks left out go to
// the function's .cold part) and the ld profile lld reads with
// --symbol-ordering-file (function symbols, hot parts in order, then the
// .cold parts).
//
// In: a binary's basic-block address map (package bbaddrmap; clang
// -fbasic-block-address-map), its function symbols (for the names), and
// the aggregate.Counters of its LBR samples at the binary's addresses:
// fall-through ranges and taken branches. Out: a Profile, written by
// WriteCC (format v1, or v0 for older clang) and WriteLD.
//
// How (as Google's llvm-propeller does): each function with an executed
// block gets a control-flow graph from the map (cfg.go), its blocks and
// edges weighted by the ranges that cover them and the branches between
// them; its executed blocks are laid out by ext-TSP, scored as LLVM's
// llvm/lib/Transforms/Utils/CodeLayout.cpp scores it, entry block first
// (exttsp.go); functions are ordered by call-chain clustering over the
// calls between them (c3.go). ReadCC reads a cc profile back, for checks.
package propeller
