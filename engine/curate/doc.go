// Package curate is the owner correcting memory by hand: edit a block's
// text, delete a block, move a block to another topic file. Each is one
// owner transaction on the core's exported API (View, Locked, Tx.Install)
// with a history kind of its own ("edit", "delete", "move"), so Audit
// shows it and revert undoes it; crash safety is the install's.
//
// The rules a block keeps through all three:
//
//   - Its id never changes, and a citation is never silently lost. An edit
//     keeps every footnote definition; a [^e-…] marker the owner deleted
//     from the text is put back at its end (Reattached says which). A new
//     marker must name a definition the file already has.
//   - The text is one element: a blank line (two paragraphs), a heading
//     line or a footnote definition line in it is refused, with the line
//     of the text it is on, and so is a block id typed by hand.
//   - A delete is refused while other blocks link to the block; the
//     refusal (REJECTED) names each linking file, line and block. The
//     block's footnote definitions that no other element of the file uses
//     go with it.
//   - A move carries the block's footnote definitions to the target file
//     with their source paths recomputed (a label the target already uses
//     for other sources is renamed), rewrites the block's own relative
//     links, and rewrites every link to the block in any file. The target
//     is created with a "# Title" from its name when missing, and the
//     block lands at the end of the file or of the section under a chosen
//     heading (created when missing).
//   - A file that a delete or move leaves with headings only is deleted,
//     unless it is topics/core.md or another file links to it; revert
//     brings it back with the block.
//
// Everything else in a touched file keeps its bytes: blocks are spliced
// in and out by line, never re-rendered.
//
// The editor side (EditorFile, ParseEditorFile, EditorCommand) is the
// git-commit convention shared by the CLI and the TUI: the block's text
// under a comment header the program strips, the errors of a refused text
// noted in that header when the editor opens again.
package curate
