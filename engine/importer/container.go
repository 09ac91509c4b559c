package importer

import (
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"sort"

	"scriptorium/errcode"
)

// A container is a folder or a zip archive whose files an import reads:
// the walk lists them by their names inside it ("/" separators; a zip's
// entry names as the zip spells them, which the parsers expect), and the
// import opens them one at a time.
type container interface {
	// members lists the regular files, in lexical order.
	members() []member
	// open opens the member called name.
	open(name string) (io.ReadCloser, error)
	// display is how a member is named in messages.
	display(name string) string
	close() error
}

// member is one file of a container.
type member struct {
	name string
	size int64 // uncompressed
}

// maxMemberBytes bounds what the import reads of one member of a zip
// (whose header may lie about the size), and maxExportBytes what a
// multi-file export read whole may hold in all (a folder of several
// Discord exports: its parser holds it in memory; a Slack export streams).
const (
	maxMemberBytes = 1 << 30
	maxExportBytes = 2 << 30
)

// folder is a directory on disk.
type folder struct {
	root    string
	files   []member
	skipped []Unrecognised // what the walk did not read, and why
}

// openFolder lists the regular files under root (walkFolder: symbolic
// links are followed, once, and a cycle or a broken link is skipped and
// said); a directory the walk cannot read is refused rather than silently
// left out.
func openFolder(root string) (*folder, error) {
	f := &folder{root: root}
	files, skipped, err := walkFolder(root)
	if err != nil {
		return nil, errcode.Wrap(errcode.InvalidArgument, err, "read directory %s", root)
	}
	for _, w := range files {
		f.files = append(f.files, member{name: w.name, size: w.size})
	}
	f.skipped = skipped
	return f, nil
}

func (f *folder) members() []member { return f.files }

func (f *folder) open(name string) (io.ReadCloser, error) {
	return os.Open(filepath.Join(f.root, filepath.FromSlash(name)))
}

func (f *folder) display(name string) string { return filepath.Join(f.root, filepath.FromSlash(name)) }

func (f *folder) close() error { return nil }

// zipArchive is a zip file, read with archive/zip.
type zipArchive struct {
	path  string
	file  *os.File
	r     *zip.Reader
	byNam map[string]*zip.File
	files []member
}

// zipMagic starts every zip archive (a local file header).
var zipMagic = []byte("PK\x03\x04")

// isZip reports whether head, a file's first bytes, starts a zip archive.
func isZip(head []byte) bool { return bytes.HasPrefix(head, zipMagic) }

// openZip opens the zip archive at p. A damaged archive is an error of
// that file.
func openZip(p string) (*zipArchive, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	r, err := zip.NewReader(f, fi.Size())
	if err != nil && !errors.Is(err, zip.ErrInsecurePath) {
		f.Close()
		return nil, fmt.Errorf("not a readable zip archive: %w", err)
	}
	z := &zipArchive{path: p, file: f, r: r, byNam: map[string]*zip.File{}}
	for _, e := range r.File {
		// Entry names are kept as the zip spells them: nothing is written
		// to disk, so a "../" in a name can do no harm, and the parsers
		// resolve the export's layout themselves.
		if e.FileInfo().IsDir() || !e.Mode().IsRegular() {
			continue
		}
		if _, dup := z.byNam[e.Name]; dup {
			continue // the first entry of a name wins, as unzip does
		}
		z.byNam[e.Name] = e
		z.files = append(z.files, member{name: e.Name, size: int64(min(e.UncompressedSize64, 1<<62))})
	}
	sort.Slice(z.files, func(i, j int) bool { return z.files[i].name < z.files[j].name })
	return z, nil
}

func (z *zipArchive) members() []member { return z.files }

func (z *zipArchive) open(name string) (io.ReadCloser, error) {
	e, ok := z.byNam[name]
	if !ok {
		return nil, fmt.Errorf("%s: no entry %q", z.path, name)
	}
	rc, err := e.Open()
	if err != nil {
		return nil, err
	}
	return &limitedMember{rc: rc, left: maxMemberBytes, name: z.display(name)}, nil
}

func (z *zipArchive) display(name string) string { return z.path + "/" + name }

func (z *zipArchive) close() error { return z.file.Close() }

// limitedMember refuses a zip entry that inflates beyond maxMemberBytes.
type limitedMember struct {
	rc   io.ReadCloser
	left int64
	name string
}

func (l *limitedMember) Read(b []byte) (int, error) {
	if l.left <= 0 {
		return 0, fmt.Errorf("%s: larger than %d MiB uncompressed; not read", l.name, maxMemberBytes>>20)
	}
	if int64(len(b)) > l.left {
		b = b[:l.left]
	}
	n, err := l.rc.Read(b)
	l.left -= int64(n)
	return n, err
}

func (l *limitedMember) Close() error { return l.rc.Close() }

// readHead reads up to n bytes of a container's member.
func readHead(c container, name string, n int) ([]byte, error) {
	rc, err := c.open(name)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	buf := make([]byte, n)
	k, err := io.ReadFull(rc, buf)
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		err = nil
	}
	return buf[:k], err
}

// dirOf is the folder of a member name ("." for the root).
func dirOf(name string) string { return path.Dir(name) }
