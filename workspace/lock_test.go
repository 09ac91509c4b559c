package workspace

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// Environment of the helper process (TestHelperProcess).
const (
	helperEnv     = "SCRIPTORIUM_WORKSPACE_HELPER" // mode: "count" or "hold"
	helperDirEnv  = "SCRIPTORIUM_WORKSPACE_DIR"    // memory dir
	helperDataEnv = "SCRIPTORIUM_WORKSPACE_DATA"   // counter and log dir
	helperIterEnv = "SCRIPTORIUM_WORKSPACE_ITER"
	helperTagEnv  = "SCRIPTORIUM_WORKSPACE_TAG"
)

// TestHelperProcess is not a test: the lock tests run the test binary again
// with helperEnv set to get a second process that takes the write lock.
func TestHelperProcess(t *testing.T) {
	mode := os.Getenv(helperEnv)
	if mode == "" {
		t.Skip("helper process for the lock tests")
	}
	os.Exit(runHelper(mode))
}

func runHelper(mode string) int {
	fail := func(err error) int {
		fmt.Fprintln(os.Stderr, "helper:", err)
		return 3
	}
	tag := os.Getenv(helperTagEnv)
	w, err := Open(os.Getenv(helperDirEnv), &Options{Holder: "helper-" + tag})
	if err != nil {
		return fail(err)
	}
	switch mode {
	case "count":
		n, err := strconv.Atoi(os.Getenv(helperIterEnv))
		if err != nil {
			return fail(err)
		}
		for range n {
			release, err := w.Lock(context.Background(), LockInteractive)
			if err != nil {
				return fail(err)
			}
			err = critical(os.Getenv(helperDataEnv), tag)
			release()
			if err != nil {
				return fail(err)
			}
		}
		return 0
	case "hold":
		release, err := w.Lock(WithLockPurpose(context.Background(), "hold"), LockInteractive)
		if err != nil {
			return fail(err)
		}
		fmt.Println("locked")
		_, _ = io.Copy(io.Discard, os.Stdin) // hold until the parent closes stdin
		release()
		return 0
	}
	return fail(fmt.Errorf("unknown mode %q", mode))
}

// critical is the work done under the lock: a non-atomic read-modify-write
// of a counter bracketed by log lines. Two holders at once show up as an
// interleaved log or a lost increment.
func critical(dataDir, tag string) error {
	logf, err := os.OpenFile(filepath.Join(dataDir, "log"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	defer logf.Close()
	if _, err := fmt.Fprintf(logf, "enter %s\n", tag); err != nil {
		return err
	}
	counter := filepath.Join(dataDir, "counter")
	n := 0
	if b, err := os.ReadFile(counter); err == nil {
		if n, err = strconv.Atoi(string(b)); err != nil {
			return err
		}
	} else if !errors.Is(err, os.ErrNotExist) {
		return err
	}
	runtime.Gosched() // widen the window a broken lock would leave open
	if err := os.WriteFile(counter, []byte(strconv.Itoa(n+1)), 0o644); err != nil {
		return err
	}
	_, err = fmt.Fprintf(logf, "exit %s\n", tag)
	return err
}

// helper starts the test binary as a helper process.
func helper(t *testing.T, mode, dir, dataDir, tag string, iter int) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperProcess$", "-test.count=1")
	cmd.Env = append(os.Environ(),
		helperEnv+"="+mode, helperDirEnv+"="+dir, helperDataEnv+"="+dataDir,
		helperIterEnv+"="+strconv.Itoa(iter), helperTagEnv+"="+tag)
	cmd.Stderr = os.Stderr
	return cmd
}

// holder is a helper process holding the write lock until stop is called.
type holder struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	once  sync.Once
	err   error
}

func startHolder(t *testing.T, dir string) *holder {
	t.Helper()
	cmd := helper(t, "hold", dir, t.TempDir(), "holder", 0)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	h := &holder{cmd: cmd, stdin: stdin}
	t.Cleanup(func() {
		if err := h.stop(); err != nil {
			t.Errorf("holder process: %v", err)
		}
	})
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil || line != "locked\n" {
		t.Fatalf("holder said %q, %v", line, err)
	}
	return h
}

// stop makes the holder release the lock and waits for it to exit.
func (h *holder) stop() error {
	h.once.Do(func() {
		_ = h.stdin.Close()
		h.err = h.cmd.Wait()
	})
	return h.err
}

func TestLock_GoroutinesAndProcessesExclude(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "memory")
	data := t.TempDir()
	w1 := mustOpenAt(t, dir, nil)
	w2 := mustOpenAt(t, dir, nil) // a second handle in this process

	const procs, procIter, goroutines, goIter = 2, 30, 6, 20
	var cmds []*exec.Cmd
	for i := range procs {
		cmd := helper(t, "count", dir, data, "p"+strconv.Itoa(i), procIter)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, cmd)
	}
	var wg sync.WaitGroup
	errs := make(chan error, goroutines)
	for g := range goroutines {
		w := w1
		if g%2 == 1 {
			w = w2
		}
		wg.Go(func() {
			for range goIter {
				release, err := w.Lock(context.Background(), LockInteractive)
				if err != nil {
					errs <- err
					return
				}
				err = critical(data, "g"+strconv.Itoa(g))
				release()
				if err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	for _, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Errorf("helper process: %v", err)
		}
	}

	want := procs*procIter + goroutines*goIter
	if got := mustRead(t, filepath.Join(data, "counter")); got != strconv.Itoa(want) {
		t.Errorf("counter = %s, want %d: increments were lost", got, want)
	}
	lines := strings.Split(strings.TrimSuffix(mustRead(t, filepath.Join(data, "log")), "\n"), "\n")
	if len(lines) != 2*want {
		t.Fatalf("log has %d lines, want %d", len(lines), 2*want)
	}
	for i := 0; i < len(lines); i += 2 {
		enter, exit := lines[i], lines[i+1]
		if !strings.HasPrefix(enter, "enter ") || exit != "exit "+strings.TrimPrefix(enter, "enter ") {
			t.Fatalf("log lines %d-%d interleave: %q, %q", i+1, i+2, enter, exit)
		}
	}
}

func TestLock_BackgroundGivesUpWhileProcessHolds(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "memory")
	w := mustOpenAt(t, dir, nil)
	h := startHolder(t, dir)

	holderDesc, ok := w.LockHolder()
	want := "pid " + strconv.Itoa(h.cmd.Process.Pid) + " helper-holder (hold)"
	if !ok || !holderSince(holderDesc, want) {
		t.Errorf("LockHolder() = %q, %v; want %q since …", holderDesc, ok, want)
	}
	_, err := w.Lock(context.Background(), LockBackground)
	if !errors.Is(err, ErrLockBusy) {
		t.Fatalf("background Lock = %v, want ErrLockBusy", err)
	}
	if !strings.Contains(err.Error(), want) {
		t.Errorf("error %q does not name the holder %q", err, want)
	}

	if err := h.stop(); err != nil {
		t.Fatal(err)
	}
	if _, ok := w.LockHolder(); ok {
		t.Error("LockHolder still reports the holder after it released")
	}
	release, err := w.Lock(context.Background(), LockBackground)
	if err != nil {
		t.Fatalf("background Lock after release: %v", err)
	}
	release()
}

func TestLock_InteractiveWaitsForProcess(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "memory")
	waiting := make(chan struct{}, 4)
	w := mustOpenAt(t, dir, &Options{OnLockWait: func() { waiting <- struct{}{} }})
	h := startHolder(t, dir)

	done := make(chan error, 1)
	go func() {
		release, err := w.Lock(context.Background(), LockInteractive)
		if err == nil {
			release()
		}
		done <- err
	}()
	<-waiting // Lock found the lock taken and said so
	if err := h.stop(); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatalf("interactive Lock: %v", err)
	}
	if n := len(waiting); n != 0 {
		t.Errorf("OnLockWait called %d extra times for one wait", n)
	}
}

func TestLock_InteractiveGivesUpWhenContextEnds(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "memory")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	w := mustOpenAt(t, dir, &Options{OnLockWait: cancel})
	startHolder(t, dir)

	_, err := w.Lock(ctx, LockInteractive)
	if !errors.Is(err, ErrLockBusy) || !errors.Is(err, context.Canceled) {
		t.Fatalf("Lock = %v, want ErrLockBusy and context.Canceled", err)
	}
}

func TestOpen_WaitsForLock(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "memory")
	mustOpenAt(t, dir, nil)
	h := startHolder(t, dir)
	var seen string
	// A Recover hook makes Open take the lock (recovery is always due).
	w, err := Open(dir, &Options{Recover: func(*Workspace) error { return nil }, OnLockWait: func() {
		seen, _ = ReadLockHolder(dir)
		_ = h.stop()
	}})
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	if want := "pid " + strconv.Itoa(h.cmd.Process.Pid) + " helper-holder (hold)"; !holderSince(seen, want) {
		t.Errorf("holder while waiting = %q, want %q since …", seen, want)
	}
	_ = w
}

func TestOpenContext_GivesUp(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "memory")
	mustOpenAt(t, dir, nil)
	startHolder(t, dir)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	_, err := OpenContext(ctx, dir, &Options{Recover: func(*Workspace) error { return nil }, OnLockWait: cancel})
	if !errors.Is(err, ErrLockBusy) {
		t.Fatalf("OpenContext = %v, want ErrLockBusy", err)
	}
}

// With nothing to recover, sweep or move, Open takes no lock at all: a
// reader never waits behind a writer.
func TestOpen_NothingDueTakesNoLock(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "memory")
	mustOpenAt(t, dir, nil)
	startHolder(t, dir)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	recovered := false
	w, err := OpenContext(ctx, dir, &Options{
		Recover:       func(*Workspace) error { recovered = true; return nil },
		NeedsRecovery: func(*Workspace) bool { return false },
		OnLockWait:    func() { t.Error("Open waited for the lock with nothing to do") },
	})
	if err != nil {
		t.Fatalf("OpenContext = %v, want an open workspace", err)
	}
	if w.ID() == "" || recovered {
		t.Fatalf("id %q, recovered %v: want the id loaded and no recovery", w.ID(), recovered)
	}
}

func TestLock_SameProcessHandlesExclude(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "memory")
	w1 := mustOpenAt(t, dir, nil)
	w2 := mustOpenAt(t, dir, nil)
	release, err := w1.Lock(context.Background(), LockBackground)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w2.Lock(context.Background(), LockBackground); !errors.Is(err, ErrLockBusy) {
		t.Errorf("second handle Lock = %v, want ErrLockBusy", err)
	}
	release()
	release() // harmless
	r2, err := w2.Lock(context.Background(), LockBackground)
	if err != nil {
		t.Fatalf("after release: %v", err)
	}
	r2()
}

func TestLock_GoroutineWaitsOnSharedHandle(t *testing.T) {
	waiting := make(chan struct{}, 1)
	w := mustOpen(t, &Options{OnLockWait: func() { waiting <- struct{}{} }})
	release, err := w.Lock(context.Background(), LockInteractive)
	if err != nil {
		t.Fatal(err)
	}
	// A shared flock instance would let a second goroutine straight in.
	if _, err := w.Lock(context.Background(), LockBackground); !errors.Is(err, ErrLockBusy) {
		t.Fatalf("second goroutine Lock = %v, want ErrLockBusy", err)
	}
	done := make(chan error, 1)
	go func() {
		r, err := w.Lock(context.Background(), LockInteractive)
		if err == nil {
			r()
		}
		done <- err
	}()
	<-waiting
	release()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

func TestLock_DoneContextFailsAtOnce(t *testing.T) {
	w := mustOpen(t, nil)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, mode := range []LockMode{LockBackground, LockInteractive} {
		if _, err := w.Lock(ctx, mode); !errors.Is(err, ErrLockBusy) || !errors.Is(err, context.Canceled) {
			t.Errorf("%v Lock on a done context = %v", mode, err)
		}
	}
}

func TestLock_HolderFileAndLockFileLifecycle(t *testing.T) {
	w := mustOpen(t, &Options{Holder: "update"})
	lockPath := filepath.Join(w.Root(), ".scriptorium", "write.lock")
	before, err := os.Stat(lockPath)
	if err != nil {
		t.Fatal(err)
	}
	release, err := w.Lock(WithLockPurpose(context.Background(), "promote"), LockInteractive)
	if err != nil {
		t.Fatal(err)
	}
	want := "pid " + strconv.Itoa(os.Getpid()) + " update (promote)"
	if got, ok := w.LockHolder(); !ok || !holderSince(got, want) {
		t.Errorf("LockHolder() = %q, %v; want %q since …", got, ok, want)
	}
	if got := mustRead(t, filepath.Join(w.RuntimeDir(), "lock-holder")); !holderSince(strings.TrimSuffix(got, "\n"), want) || !strings.HasSuffix(got, "\n") {
		t.Errorf("lock-holder file = %q", got)
	}
	if got := mustRead(t, lockPath); got != "" {
		t.Errorf("write.lock holds %q, want nothing", got)
	}
	release()
	if _, err := os.Stat(filepath.Join(w.RuntimeDir(), "lock-holder")); !os.IsNotExist(err) {
		t.Errorf("lock-holder not removed on release: %v", err)
	}
	after, err := os.Stat(lockPath)
	if err != nil {
		t.Fatalf("write.lock gone after release: %v", err)
	}
	if !os.SameFile(before, after) {
		t.Error("write.lock was replaced")
	}
}

func TestReadLockHolder_StaleOrGarbage(t *testing.T) {
	w := mustOpen(t, nil)
	p := filepath.Join(w.RuntimeDir(), "lock-holder")
	for _, content := range []string{"pid 2147483000 update\n", "garbage\n", "pid x y\n", ""} {
		mustWrite(t, p, content)
		if h, ok := w.LockHolder(); ok {
			t.Errorf("LockHolder() with %q = %q, want none", content, h)
		}
	}
}

func TestLockMode_String(t *testing.T) {
	for mode, want := range map[LockMode]string{LockBackground: "background", LockInteractive: "interactive", 7: "LockMode(7)"} {
		if got := mode.String(); got != want {
			t.Errorf("%d.String() = %q, want %q", int(mode), got, want)
		}
	}
}

// holderSince reports whether a lock-holder record is want followed by the
// time the lock was taken (" since <RFC 3339>").
func holderSince(got, want string) bool {
	rest, ok := strings.CutPrefix(got, want+" since ")
	if !ok {
		return false
	}
	_, err := time.Parse(time.RFC3339, rest)
	return err == nil
}

func TestLockState_ProbesTheLock(t *testing.T) {
	w, err := Open(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if held, _ := w.LockState(); held {
		t.Fatal("a free lock reads as held")
	}
	release, err := w.Lock(context.Background(), LockInteractive)
	if err != nil {
		t.Fatal(err)
	}
	// The record is lost: the probe still sees the lock held.
	_ = os.Remove(filepath.Join(w.RuntimeDir(), "lock-holder"))
	if held, who := w.LockState(); !held || !strings.Contains(who, "this process") {
		t.Errorf("LockState() = %v, %q while this process holds the lock", held, who)
	}
	release()
	if held, who := w.LockState(); held {
		t.Errorf("LockState() = held by %q after release", who)
	}
}
