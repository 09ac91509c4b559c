package transcripttest

import (
	"io"
	"runtime"
)

// StreamReader serves n lines made by line(i), i = 0, 1, …, without ever
// holding more than one of them, and samples the heap as it is read: a
// parser that holds only what it returns reads a file far bigger than its
// peak heap.
type StreamReader struct {
	line     func(i int) []byte
	n, i     int
	buf      []byte
	read     int64
	sampled  int64
	PeakHeap uint64 // the largest HeapAlloc seen while the stream was read
}

// NewStreamReader serves n lines; each line(i) should end with "\n".
func NewStreamReader(n int, line func(i int) []byte) *StreamReader {
	return &StreamReader{line: line, n: n}
}

// Read implements io.Reader, sampling the heap every MiB served.
func (s *StreamReader) Read(p []byte) (int, error) {
	for len(s.buf) == 0 {
		if s.i == s.n {
			s.sample()
			return 0, io.EOF
		}
		s.buf = s.line(s.i)
		s.i++
	}
	k := copy(p, s.buf)
	s.buf = s.buf[k:]
	s.read += int64(k)
	if s.read-s.sampled >= 1<<20 {
		s.sample()
	}
	return k, nil
}

func (s *StreamReader) sample() {
	s.sampled = s.read
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	s.PeakHeap = max(s.PeakHeap, m.HeapAlloc)
}

// Bytes is how many bytes were served.
func (s *StreamReader) Bytes() int64 { return s.read }
