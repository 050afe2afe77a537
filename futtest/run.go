package futtest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"time"

	"github.com/arepl/arepl/eval"
	"github.com/arepl/arepl/eval/backends"
	"github.com/arepl/arepl/lang/source"
	"github.com/arepl/arepl/lang/syntax"
	"github.com/arepl/arepl/lang/types"
)

// Options configure Run.
type Options struct {
	Backend string // "auto" (default), "cpu" or "gpu"
	Fusion  bool   // run the fusion passes
	// Progress, when set, receives a one-line status per file, rewritten in
	// place with a carriage return (for a terminal), and cleared at the end.
	Progress io.Writer
	// PlanCheck checks a `plan { ... }` item against the result of a
	// successful case of the block's entry point. Plans are checked only
	// with Fusion on; with PlanCheck nil they are skipped with a note.
	// CheckFusionPlan is the checker arepl uses.
	PlanCheck func(PlanCase) error
	// Verbose, when set, receives one line per file as it finishes: the
	// path and its cases passed and failed (`arepl test -v`).
	Verbose io.Writer
	// Timeout bounds each case (0: no bound).
	Timeout time.Duration
	// NewSession makes the session for one file; nil means
	// backends.NewSession, the real pipeline.
	NewSession func(eval.Options) *eval.Session
}

// PlanCase is what a plan checker gets: the expectation and a result of
// running the entry point with fusion on.
type PlanCase struct {
	Path   string
	Line   int
	Entry  string
	Want   map[string]int // kind -> count, as written in the block
	Result *eval.Result
}

// CheckFusionPlan compares the counts of a plan block with the fusion plan
// of the case's result.
func CheckFusionPlan(c PlanCase) error {
	if c.Result == nil || c.Result.Plan == nil {
		return errors.New("the result carries no fusion plan")
	}
	return c.Result.Plan.Check(c.Want)
}

// Report is the outcome of a run.
type Report struct {
	Files    int // files with at least one test block
	Passed   int
	Failed   int
	Skipped  int
	Failures []Failure
	Notes    []string // what was skipped and why
	// CPUStatements counts the SOAC statements a GPU backend ran on the
	// CPU over all cases (eval.Timings.CPUStatements).
	CPUStatements int
}

// Failure is one failed case (or a file that could not be read or loaded,
// which counts as one failure).
type Failure struct {
	Path string
	Line int
	Case string // e.g. "main #2", "load", "plan of main"
	Msg  string
}

func (f Failure) String() string {
	return fmt.Sprintf("%s:%d: %s: %s", f.Path, f.Line, f.Case, f.Msg)
}

// Summary is the closing line of `arepl test`: "N passed, N failed", plus
// ", N skipped" when something was skipped.
func (r *Report) Summary() string {
	s := fmt.Sprintf("%d passed, %d failed", r.Passed, r.Failed)
	if r.Skipped > 0 {
		s += fmt.Sprintf(", %d skipped", r.Skipped)
	}
	if r.CPUStatements > 0 {
		s += fmt.Sprintf("; %d SOAC statements ran on the CPU", r.CPUStatements)
	}
	return s
}

// Write prints the notes, one line per failure, and the summary.
func (r *Report) Write(w io.Writer) {
	for _, n := range r.Notes {
		fmt.Fprintln(w, "note:", n)
	}
	for _, f := range r.Failures {
		fmt.Fprintln(w, f.String())
	}
	fmt.Fprintln(w, r.Summary())
}

func (r *Report) fail(path string, line int, what, format string, args ...any) {
	r.Failed++
	msg := fmt.Sprintf(format, args...)
	// Keep each failure on one line.
	msg = strings.Join(strings.Fields(msg), " ")
	r.Failures = append(r.Failures, Failure{Path: path, Line: line, Case: what, Msg: msg})
}

func (r *Report) skip(path string, line int, what, why string) {
	r.Skipped++
	r.Notes = append(r.Notes, fmt.Sprintf("%s:%d: %s: skipped: %s", path, line, what, why))
}

// Run runs the test blocks of the given files and of every .fut file under
// the given folders (recursively, in lexical order). Each file gets a fresh
// session. The error is for paths that cannot be listed, or ctx's error
// when the run was cancelled (the report then covers what ran).
func Run(ctx context.Context, paths []string, opts Options) (*Report, error) {
	files, err := collect(paths)
	if err != nil {
		return nil, err
	}
	rep := &Report{}
	for i, path := range files {
		if opts.Progress != nil {
			fmt.Fprintf(opts.Progress, "\r\x1b[K[%d/%d] %s", i+1, len(files), path)
		}
		passed, failed := rep.Passed, len(rep.Failures)
		runFile(ctx, path, opts, rep)
		if opts.Verbose != nil {
			status := "ok"
			if len(rep.Failures) > failed {
				status = "FAIL"
			}
			fmt.Fprintf(opts.Verbose, "%-4s %s (%d passed, %d failed)\n", status, path, rep.Passed-passed, len(rep.Failures)-failed)
		}
		if ctx.Err() != nil {
			break
		}
	}
	if opts.Progress != nil {
		fmt.Fprint(opts.Progress, "\r\x1b[K")
	}
	return rep, ctx.Err()
}

// collect expands folders into their .fut files.
func collect(paths []string) ([]string, error) {
	var files []string
	for _, p := range paths {
		info, err := os.Stat(p)
		if err != nil {
			return nil, err
		}
		if !info.IsDir() {
			files = append(files, p)
			continue
		}
		err = filepath.WalkDir(p, func(q string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() && strings.HasSuffix(q, ".fut") {
				files = append(files, q)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return files, nil
}

func runFile(ctx context.Context, path string, opts Options, rep *Report) {
	src, err := eval.ReadFileLimited(ctx, path, eval.MaxSourceBytes)
	if err != nil {
		rep.Files++
		rep.fail(path, 0, "read", "%v", err)
		return
	}
	spec, err := Parse(path, string(src))
	if err != nil {
		rep.Files++
		var se *source.Error
		if errors.As(err, &se) {
			rep.fail(path, se.Pos.Line, "test block", "%s", se.Msg)
		} else {
			rep.fail(path, 0, "test block", "%v", err)
		}
		return
	}
	rep.Files++
	for _, b := range spec.Blocks {
		if b.Disabled != "" {
			rep.skip(path, b.Line, "program", "tagged "+b.Disabled)
			return
		}
	}
	newSession := opts.NewSession
	if newSession == nil {
		newSession = backends.NewSession
	}
	fc := &fileCtx{path: path, dir: filepath.Dir(path), entries: entryPoints(path, string(src)), newSession: newSession}
	sess := newSession(eval.Options{Backend: opts.Backend, Fusion: opts.Fusion})
	_, loadErr := guard(func() error {
		_, err := sess.Load(ctx, path)
		return err
	})

	expectsLoadError := false
	for _, b := range spec.Blocks {
		if b.LoadError == nil {
			continue
		}
		expectsLoadError = true
		switch {
		case loadErr == nil:
			rep.fail(path, b.Line, "load", "loaded without error, want an error matching %q", b.LoadError.Text)
		case !b.LoadError.MatchesLoad(loadErr.Error()):
			rep.fail(path, b.Line, "load", "error %q does not match %q", loadErr.Error(), b.LoadError.Text)
		default:
			rep.Passed++
		}
	}
	if loadErr != nil {
		if !expectsLoadError {
			rep.fail(path, 1, "load", "%v", loadErr)
		}
		return
	}
	if len(spec.Blocks) == 0 {
		// A program without tests must still load, as with futhark test.
		rep.Passed++
		return
	}
	for _, b := range spec.Blocks {
		if b.LoadError == nil {
			runBlock(ctx, sess, fc, path, b, opts, rep)
		}
		if ctx.Err() != nil {
			return
		}
	}
}

// fileCtx is what cases need to know of their file: its folder (data files
// are relative to it) and its entry points (all a script may call).
type fileCtx struct {
	path    string
	dir     string
	entries map[string]bool
	// newSession makes sessions; ref is the reference session that auto
	// output cases compare with, loaded on first use (refErr its failure).
	newSession func(eval.Options) *eval.Session
	ref        *eval.Session
	refErr     error
}

// reference returns the session of the reference implementation, the CPU
// interpreter without fusion, with the file loaded.
func (fc *fileCtx) reference(ctx context.Context) (*eval.Session, error) {
	if fc.ref == nil && fc.refErr == nil {
		fc.ref = fc.newSession(eval.Options{Backend: "cpu", Fusion: false})
		_, fc.refErr = guard(func() error {
			_, err := fc.ref.Load(ctx, fc.path)
			return err
		})
	}
	return fc.ref, fc.refErr
}

// entryPoints lists the entry points the program src declares.
func entryPoints(path, src string) map[string]bool {
	out := map[string]bool{}
	f, err := syntax.ParseFile(source.NewFile(path, src))
	if err != nil {
		return out
	}
	for _, d := range f.Decls {
		if v, ok := d.(*syntax.ValDecl); ok && v.Kind == syntax.KindEntry {
			out[v.Name] = true
		}
	}
	return out
}

func runBlock(ctx context.Context, sess *eval.Session, fc *fileCtx, path string, b *Block, opts Options, rep *Report) {
	for _, sk := range b.Skipped {
		rep.skip(path, sk.Line, "block", sk.What)
	}
	for _, entry := range b.Entries {
		var sample *eval.Result // a successful result, for the plan check
		for _, c := range b.Cases {
			what := entry + " " + c.Label()
			if c.Skip != "" {
				rep.skip(path, c.Line, what, c.Skip)
				continue
			}
			res, msg := runCase(ctx, sess, fc, entry, c, opts)
			if ctx.Err() != nil {
				return
			}
			if msg != "" {
				rep.fail(path, c.Line, what, "%s", msg)
				continue
			}
			rep.Passed++
			if res != nil {
				rep.CPUStatements += res.Timings.CPUStatements
			}
			if sample == nil && res != nil {
				sample = res
			}
		}
		if b.Plan == nil || !opts.Fusion {
			continue
		}
		what := "plan of " + entry
		switch {
		case opts.PlanCheck == nil:
			rep.skip(path, b.PlanLine, what, "no plan checker")
		case sample == nil:
			rep.fail(path, b.PlanLine, what, "no successful case to take the plan from")
		default:
			c := PlanCase{Path: path, Line: b.PlanLine, Entry: entry, Want: b.Plan, Result: sample}
			if _, err := guard(func() error { return opts.PlanCheck(c) }); err != nil {
				rep.fail(path, b.PlanLine, what, "%v", err)
			} else {
				rep.Passed++
			}
		}
	}
}

// runCase runs one case and returns its result when it produced values,
// and a failure message ("" when the case passed).
func runCase(ctx context.Context, sess *eval.Session, fc *fileCtx, entry string, c *Case, opts Options) (*eval.Result, string) {
	params, ret, err := sess.ParamTypes(entry)
	if err != nil {
		return nil, fmt.Sprintf("no entry point %s: %v", entry, err)
	}
	if opts.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, opts.Timeout)
		defer cancel()
	}
	input := c.Input
	if c.Random {
		if input, err = randomInput(c.Input, uint64(c.Line)); err != nil {
			return nil, err.Error()
		}
	}
	var args [][]eval.Value
	switch {
	case c.Script:
		if c.InputFile != "" {
			raw, ferr := loadFile(ctx, fc.dir, c.InputFile)
			if ferr != nil {
				return nil, fmt.Sprintf("reading the script: %v", ferr)
			}
			input = string(raw)
		}
		_, err = guard(func() error {
			var err error
			args, err = scriptArgs(ctx, sess, fc.dir, fc.entries, input, params)
			return err
		})
		if err != nil {
			// A script that fails is the case's run-time error.
			if c.Error != nil && c.Error.Matches(err.Error()) {
				return nil, ""
			}
			return nil, err.Error()
		}
	case c.InputFile != "":
		args, err = readDataFile(ctx, fc.dir, c.InputFile, params)
	default:
		args, err = eval.ReadValues(input, params)
	}
	if err != nil {
		// An input that does not fit the entry point is a run-time
		// error in Futhark, which an error case may expect.
		if c.Error != nil && c.Error.Matches(err.Error()) {
			return nil, ""
		}
		return nil, fmt.Sprintf("reading the input: %v", err)
	}
	var res *eval.Result
	panicked, err := guard(func() error {
		var err error
		res, err = sess.Call(ctx, entry, args)
		return err
	})
	if panicked {
		return nil, err.Error()
	}
	if c.Error != nil {
		if err == nil {
			return res, fmt.Sprintf("succeeded, want an error matching %q", c.Error.Text)
		}
		if !c.Error.Matches(runtimeErrorText(err)) {
			return nil, fmt.Sprintf("error %q does not match %q", err.Error(), c.Error.Text)
		}
		return nil, ""
	}
	if err != nil {
		return nil, fmt.Sprintf("error: %v", err)
	}
	if c.Auto {
		return res, autoCompare(ctx, fc, entry, args, res)
	}
	if !c.HasOutput {
		return res, ""
	}
	var want [][]eval.Value
	if c.OutputFile != "" {
		want, err = readDataFile(ctx, fc.dir, c.OutputFile, resultTypes(ret))
	} else {
		want, err = eval.ReadValues(c.Output, resultTypes(ret))
	}
	if err != nil {
		return nil, fmt.Sprintf("reading the expected output: %v", err)
	}
	var flat []eval.Value
	for _, vs := range want {
		flat = append(flat, vs...)
	}
	if err := Compare(ctx, res.Values, flat); err != nil {
		return nil, err.Error()
	}
	return res, ""
}

// autoCompare checks an auto output case's result res against the
// reference implementation's on the same arguments; "" when they agree.
func autoCompare(ctx context.Context, fc *fileCtx, entry string, args [][]eval.Value, res *eval.Result) string {
	ref, err := fc.reference(ctx)
	if err != nil {
		return fmt.Sprintf("auto output: loading the reference: %v", err)
	}
	var want *eval.Result
	if _, err := guard(func() error {
		var err error
		want, err = ref.Call(ctx, entry, args)
		return err
	}); err != nil {
		return fmt.Sprintf("auto output: the reference failed: %v", err)
	}
	if err := Compare(ctx, res.Values, want.Values); err != nil {
		return "auto output: " + err.Error()
	}
	return ""
}

// resultTypes splits a result type into the values an output block lists:
// a tuple's components, or the type itself.
func resultTypes(t types.Type) []types.Type {
	if tup, ok := t.(*types.Tuple); ok && len(tup.Elems) > 0 {
		return tup.Elems
	}
	return []types.Type{t}
}

// guard runs f, turning a panic into an error (reported as panicked) so
// that one broken program does not end the whole run.
func guard(f func() error) (panicked bool, err error) {
	defer func() {
		if r := recover(); r != nil {
			panicked = true
			err = fmt.Errorf("internal error: panic: %v\n%s", r, firstFrames(debug.Stack()))
		}
	}()
	return false, f()
}

// firstFrames keeps the top of a stack trace for a one-line failure.
func firstFrames(stack []byte) string {
	lines := strings.Split(string(stack), "\n")
	if len(lines) > 12 {
		lines = lines[:12]
	}
	return strings.Join(lines, " | ")
}

// runtimeErrorText is the text an expected run-time error's regex is
// searched in: the error as arepl reports it (file:line:col: message),
// then as a program Futhark compiled reports it on stderr, which is what
// futhark test matches (`Error: message`, then a backtrace naming the
// position), so that patterns written against either match.
func runtimeErrorText(err error) string {
	var se *source.Error
	if !errors.As(err, &se) {
		return err.Error()
	}
	return fmt.Sprintf("%s\nError: %s\n\nBacktrace:\n-> #0  %s\n", err.Error(), se.Msg, se.Pos)
}
