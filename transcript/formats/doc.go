// Package formats knows every transcript format the importer reads: it
// recognises a file by its content (Detect) and names the parser of each
// format. It sits above the parsers (transcript/claudecode, …/telegram, …)
// because package transcript, which they all import, cannot import them.
// Like them it never touches the filesystem.
package formats
