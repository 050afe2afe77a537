package gpu

import (
	"encoding/binary"
	"fmt"
	"math"
	"reflect"
	"sync"

	"github.com/arepl/arepl/lang/core"
	"github.com/arepl/arepl/lang/source"
)

// Seen programs: the module-cache hit path without code generation.
//
// A REPL line typed again, or retyped with other names, reaches Run as a
// new core program: new statements, new variables, other positions. Keyed
// on the CUDA text, its module hit the in-memory cache, but only after
// generate() had rendered every kernel again (text/template), canonical()
// had rewritten the text and SHA-256 had hashed it: 0.3-0.9 ms of
// `compile (cached)` on the H200 for a 9 µs kernel (bench/RESULTS.md,
// "Interactive latency", run 11), the largest part of a repeat's 1-2.6 ms.
//
// So the backend remembers the programs it has run by a fingerprint of
// their IR that leaves out what cannot change a result: source positions,
// and the spelling of variables and functions (renamed consistently, by
// first occurrence). Two programs with one fingerprint are the same
// computation up to renaming (alpha-equivalent): the same statements, the
// same types, the same constants. A new program whose fingerprint is known
// runs as the program seen first, with that program's module (its kernels
// are keyed by that program's statements and read its variables' names),
// scan and histogram plans (keyed by its statements, scan_run.go) and
// cubins: nothing is generated, rendered or hashed again. Its arguments
// bind to the seen function's parameters by position, and its results come
// back by position, so the values are the same bits.
//
// What a run shows besides its values may name positions or variables:
// errors ("[4]:1:15: index out of bounds") and notes ("filter ran on the
// CPU: ..."). Those must be the new program's. A seen program whose module
// leaves a SOAC to the CPU (a note on every run) is never run in another's
// place; and a run in another's place that fails, or notes anything, is
// thrown away and the new program runs as itself (Run), so an error or
// note is always worded from the program the user typed. Failing runs are
// the exception, and a repeat that fails pays twice.

// fingerprint encodes prog and its function fn with positions left out and
// names numbered by first occurrence. ok is false for a program the
// encoder cannot read (a field it does not know how to encode): such a
// program is not remembered.
func fingerprint(prog *core.Program, fn string) (fp string, fnIndex int, ok bool) {
	f := fingerprinter{vars: map[string]uint64{}, funs: make(map[string]uint64, len(prog.Funs)), b: make([]byte, 0, 512)}
	fnIndex = -1
	for i, g := range prog.Funs {
		f.funs[g.Name] = uint64(i)
		if g.Name == fn {
			fnIndex = i
		}
	}
	if fnIndex < 0 {
		return "", -1, false
	}
	f.uint(uint64(fnIndex))
	f.value(reflect.ValueOf(prog))
	if f.err != nil {
		return "", -1, false
	}
	return string(f.b), fnIndex, true
}

// fingerprinter writes a depth-first encoding of every field of the IR,
// reached by reflection so that a field added to package core is
// encoded without a change here (and a kind of field it cannot encode
// makes the program unremembered rather than wrongly matched).
type fingerprinter struct {
	b    []byte
	vars map[string]uint64 // variable name -> number, by first occurrence
	funs map[string]uint64 // the program's function names -> their index
	err  error
}

// The types the encoder treats specially: positions are skipped; a
// variable's name, a function's name and a call's callee are numbered.
var (
	posType    = reflect.TypeFor[source.Pos]()
	varType    = reflect.TypeFor[core.Var]()
	funType    = reflect.TypeFor[core.Fun]()
	applyType  = reflect.TypeFor[core.ApplyExp]()
	fpVarName  = fieldIndex(varType, "Name")
	fpFunName  = fieldIndex(funType, "Name")
	fpApplyFun = fieldIndex(applyType, "Fun")
	typeTags   sync.Map // reflect.Type -> uint64: the dynamic types of interfaces
	typeCount  struct {
		sync.Mutex
		n uint64
	}
)

func fieldIndex(t reflect.Type, name string) int {
	f, ok := t.FieldByName(name)
	if !ok {
		panic("gpu: " + t.String() + " has no field " + name)
	}
	return f.Index[0]
}

func (f *fingerprinter) uint(u uint64) { f.b = binary.AppendUvarint(f.b, u) }

func (f *fingerprinter) str(s string) {
	f.uint(uint64(len(s)))
	f.b = append(f.b, s...)
}

// name numbers a variable by its first occurrence.
func (f *fingerprinter) name(s string) {
	n, ok := f.vars[s]
	if !ok {
		n = uint64(len(f.vars))
		f.vars[s] = n
	}
	f.uint(n)
}

// fun encodes a function name: the program's own by index, anything else
// (a name the program does not define) as written.
func (f *fingerprinter) fun(s string) {
	if i, ok := f.funs[s]; ok {
		f.b = append(f.b, 'F')
		f.uint(i)
		return
	}
	f.b = append(f.b, 'N')
	f.str(s)
}

func typeTag(t reflect.Type) uint64 {
	if v, ok := typeTags.Load(t); ok {
		return v.(uint64)
	}
	typeCount.Lock()
	defer typeCount.Unlock()
	if v, ok := typeTags.Load(t); ok {
		return v.(uint64)
	}
	typeCount.n++
	typeTags.Store(t, typeCount.n)
	return typeCount.n
}

func (f *fingerprinter) value(v reflect.Value) {
	if f.err != nil {
		return
	}
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			f.b = append(f.b, 0)
			return
		}
		if v.Kind() == reflect.Interface {
			f.uint(typeTag(v.Elem().Type()))
		} else {
			f.b = append(f.b, 1)
		}
		f.value(v.Elem())
	case reflect.Struct:
		t := v.Type()
		if t == posType {
			return
		}
		for i := range v.NumField() {
			switch {
			case t == varType && i == fpVarName:
				f.name(v.Field(i).String())
			case t == funType && i == fpFunName, t == applyType && i == fpApplyFun:
				f.fun(v.Field(i).String())
			default:
				f.value(v.Field(i))
			}
		}
	case reflect.Slice, reflect.Array:
		if v.Kind() == reflect.Slice && v.IsNil() {
			f.b = append(f.b, 0)
			return
		}
		f.uint(uint64(v.Len()) + 1)
		for i := range v.Len() {
			f.value(v.Index(i))
		}
	case reflect.String:
		f.str(v.String())
	case reflect.Bool:
		if v.Bool() {
			f.b = append(f.b, 1)
		} else {
			f.b = append(f.b, 0)
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		f.b = binary.AppendVarint(f.b, v.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		f.uint(v.Uint())
	case reflect.Float32, reflect.Float64:
		f.uint(math.Float64bits(v.Float()))
	default:
		// Maps (no order), functions, channels: not in the IR today.
		f.err = fmt.Errorf("gpu: cannot fingerprint a %v", v.Type())
	}
}

// seenProgram is a program the backend has generated the module of.
type seenProgram struct {
	prog     *core.Program
	mod      *module
	src, key string // the module's text and cache key; "" without kernels
	// alone: the program never runs in another's place (its module leaves
	// a SOAC to the CPU, or a run in another's place noted something).
	alone bool
}

// seenPrograms remembers programs by fingerprint and Limits. A long REPL
// session keeps adding programs: the table is dropped when it reaches
// seenLimit entries.
type seenPrograms struct {
	mu sync.Mutex
	m  map[seenKey]*seenProgram
	// generated counts generate()'s runs, for the tests.
	generated int
}

type seenKey struct {
	fp  string
	lim Limits
}

const seenLimit = 256

// plan returns the module to run fn of prog with: seen.prog is prog
// itself, or an alpha-equivalent program seen before whose function
// seenFn stands for fn (substitute, Run's contract above, is allowed only
// when the caller can redo the run as prog). scannable(prog, s) reports
// whether the scan or histogram kernels run statement s of prog.
func (c *seenPrograms) plan(prog *core.Program, fn string, lim Limits, arch string, nvrtc [2]int,
	substitute bool, gpuRuns func(*core.Program, *core.Stmt) bool) (seen *seenProgram, seenFn string, err error) {
	fp, idx, ok := fingerprint(prog, fn)
	key := seenKey{fp, lim}
	if ok {
		c.mu.Lock()
		e := c.m[key]
		use := e != nil && (e.prog == prog || substitute && !e.alone)
		c.mu.Unlock()
		if use {
			return e, e.prog.Funs[idx].Name, nil
		}
	}
	e, err := c.generate(prog, lim, arch, nvrtc, gpuRuns)
	if err != nil || !ok {
		return e, fn, err
	}
	c.mu.Lock()
	if c.m == nil || len(c.m) >= seenLimit {
		c.m = map[seenKey]*seenProgram{}
	}
	if old := c.m[key]; old == nil || old.alone {
		// A program left alone stays so: its successor with the same
		// fingerprint would note the same things.
		e.alone = e.alone || old != nil
		c.m[key] = e
	}
	c.mu.Unlock()
	return e, fn, nil
}

// generate renders prog's module and its text and key.
func (c *seenPrograms) generate(prog *core.Program, lim Limits, arch string, nvrtc [2]int, gpuRuns func(*core.Program, *core.Stmt) bool) (*seenProgram, error) {
	c.mu.Lock()
	c.generated++
	c.mu.Unlock()
	m, err := generate(prog, lim)
	if err != nil {
		return nil, err
	}
	e := &seenProgram{prog: prog, mod: m}
	if len(m.kernels) > 0 {
		e.src, e.key = moduleText(prelude, m.body, arch, nvrtc)
	}
	for s := range m.fallback {
		if isSOAC(s.Exp) && !gpuRuns(prog, s) {
			e.alone = true
		}
	}
	return e, nil
}

// setAlone stops e from running in another program's place.
func (c *seenPrograms) setAlone(e *seenProgram) {
	c.mu.Lock()
	e.alone = true
	c.mu.Unlock()
}

// forget drops every program c remembers.
func (c *seenPrograms) forget() {
	c.mu.Lock()
	c.m = nil
	c.mu.Unlock()
}

// generations is how many modules c has generated.
func (c *seenPrograms) generations() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.generated
}
