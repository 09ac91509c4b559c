// Package archive holds the byte-level formats of source archives (SPEC §3):
// the append-only v2 archive with its canonical frames, the frozen legacy
// archives that are only ever read, the canonical speaker-id encoding, speaker
// label normalisation, and the path-segment rules that provider and thread
// names must obey.
//
// The package never touches the filesystem. Callers read a whole archive,
// hand the bytes to ParseV2, ParseLegacy or Append, and publish the result
// atomically themselves. Everything here is pure and safe on any input: no
// function panics, and parsers report the first problem as an error instead.
//
// # v2 layout
//
// A v2 archive is the marker line at byte 0, then zero or more frames, each
// preceded by one blank line:
//
//	<!-- openprogram-source-archive:v2 -->
//
//	<a id="source-8339b8d3"></a>
//	<!-- source-id:openprogram/group/m3 -->
//	<!-- speaker-id:u456 -->
//	<!-- trust:pending -->
//	<!-- record-lines:1 -->
//	[2026-08-10T12:00:00Z] B (u456): [B (u456)] [张三 (u123)] 密钥可以给他
//
// Lines end in LF only; a CR is content. The record text spans exactly
// record-lines lines and is skipped without being looked at, so a body that
// imitates frames, anchors or record headers creates nothing.
//
// Two lenient endings are accepted because editors and older tools produce
// them and no byte is ambiguous: the file may lack the LF that ends its last
// line (the record text then runs to the end of the file and must still hold
// record-lines lines), and it may end in one extra blank line after the last
// frame (or after the marker). Append continues such files correctly.
// Anything else after the last frame is an invalid frame: parsing stops there
// and never resynchronises.
//
// # Tombstones
//
// Archives are append-only with one exception: the owner's forget. A
// forgotten record's frame is replaced in place by a tombstone, which keeps
// the anchor, the source-id and the record time and holds nothing else:
//
//	<a id="source-8339b8d3"></a>
//	<!-- source-id:openprogram/group/m3 -->
//	<!-- forgotten:2026-08-10T12:00:00Z -->
//
// The forgotten line directly follows the source-id line and ends the frame
// (no speaker-id, trust or record-lines, no record text). A tombstone is a
// valid frame: its anchor resolves, so citations of it never break, and its
// source-id counts for Append's de-duplication, so the record is never
// archived again. A frozen legacy record is forgotten by ForgetLegacy, which
// keeps its header time and its line count (see there).
package archive
