package jsonlines

import (
	"bufio"
	"bytes"
	"errors"
	"io"
)

// Scanner reads a file line by line, like bufio.Scanner, but a line longer
// than the bound is reported (TooLong) instead of ending the scan, and the
// line number is kept for error messages.
type Scanner struct {
	br      *bufio.Reader
	max     int
	line    []byte
	n       int
	tooLong bool
	done    bool
	err     error
	// off is the number of bytes read through the end of the current
	// line; nl says that line ended with a line feed.
	off int64
	nl  bool
}

// NewScanner reads r with lines of at most maxLine bytes (without the LF).
func NewScanner(r io.Reader, maxLine int) *Scanner {
	return &Scanner{br: bufio.NewReaderSize(r, 64<<10), max: maxLine}
}

// NewScannerAt reads r as NewScanner does, r being positioned at byte
// offset of a file whose first line lines have been read already: Line and
// Offset count from there.
func NewScannerAt(r io.Reader, maxLine int, offset int64, lines int) *Scanner {
	s := NewScanner(r, maxLine)
	s.off, s.n = offset, lines
	return s
}

// Scan advances to the next line and reports whether there was one. A file
// that ends with a newline has no empty line after it.
func (s *Scanner) Scan() bool {
	if s.done {
		return false
	}
	s.line, s.tooLong, s.nl = s.line[:0], false, false
	read := false
	for {
		chunk, err := s.br.ReadSlice('\n')
		read = read || len(chunk) > 0
		s.off += int64(len(chunk))
		if !s.tooLong {
			if len(s.line)+len(chunk) > s.max+1 {
				s.tooLong, s.line = true, s.line[:0]
			} else {
				s.line = append(s.line, chunk...)
			}
		}
		switch {
		case err == nil:
			s.n++
			s.nl = true
			s.trim()
			return true
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF):
			s.done = true
			if !read {
				return false
			}
			s.n++
			s.trim()
			return true
		default:
			s.done, s.err = true, err
			s.n++
			return false
		}
	}
}

// trim drops the LF, a CR before it (CRLF files), and a UTF-8 byte order
// mark on the first line.
func (s *Scanner) trim() {
	s.line = bytes.TrimSuffix(s.line, []byte("\n"))
	s.line = bytes.TrimSuffix(s.line, []byte("\r"))
	if s.n == 1 {
		s.line = bytes.TrimPrefix(s.line, []byte("\xef\xbb\xbf"))
	}
}

// Bytes is the current line without its line ending. It is valid until the
// next Scan; it is empty when the line was too long.
func (s *Scanner) Bytes() []byte { return s.line }

// Line is the 1-based number of the current line (after a read error, of
// the line being read).
func (s *Scanner) Line() int { return s.n }

// TooLong reports that the current line was longer than the bound; its
// bytes were read and dropped.
func (s *Scanner) TooLong() bool { return s.tooLong }

// Offset is the number of bytes of the input read through the end of the
// current line (its line feed included), counted from the start of the
// file when the scanner was made with NewScannerAt.
func (s *Scanner) Offset() int64 { return s.off }

// Terminated reports whether the current line ended with a line feed: a
// last line without one may still be being written.
func (s *Scanner) Terminated() bool { return s.nl }

// Err is the read error that ended the scan, or nil at the end of the file.
func (s *Scanner) Err() error { return s.err }
