// Package dwarfread reads DWARF where debug/dwarf alone would not end or
// would take all memory on hostile input (Go 1.26): line table headers
// whose entry counts LineReader allocates for unchecked, and DIEs after an
// abbreviation code that does not end within its unit, which Reader.Next
// returns as null entries forever. In: the bytes of .debug_line, a
// dwarf.Data. Out: a line table's header (to run its program without
// LineReader), a LineReader on a bounded table, DIEs that end.
package dwarfread
