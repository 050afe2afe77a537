package gpu

import (
	"bytes"
	"fmt"
	"strings"
	"text/template"

	"github.com/arepl/arepl/kernels"
	"github.com/arepl/arepl/lang/core"
)

// kernelKind is a kernel family; each has a template in kernels/.
type kernelKind int

const (
	kMap        kernelKind = iota // map.cu
	kRedComm                      // redomap_comm.cu
	kRedOrdered                   // redomap_ordered.cu
	kSegRed                       // segred.cu
	kSegMap                       // segmap.go: generated whole, no template
)

var templateFile = [...]string{kMap: "map.cu", kRedComm: "redomap_comm.cu", kRedOrdered: "redomap_ordered.cu", kSegRed: "segred.cu", kSegMap: ""}

var kindName = [...]string{kMap: "map", kRedComm: "redomap", kRedOrdered: "redomap (ordered)", kSegRed: "segmented reduce", kSegMap: "segmented map"}

// paramKind says what the host passes for one kernel parameter; the C
// declaration and the host's argument list are both made from the same
// []kparam, so they cannot disagree.
type paramKind int

const (
	pN       paramKind = iota // i64 element count (segments for kSegRed)
	pExtra                    // i64: tiles per block (kRedOrdered) or row width (kSegRed)
	pErr                      // int* error flag
	pScalar                   // a free scalar, by value
	pArray                    // a free array's pointer
	pDim                      // one dimension of a free array
	pIn                       // input array k
	pOut                      // map-out array k
	pPartial                  // block partials of accumulator component k
	pResult                   // result of accumulator component k
	pCounter                  // unsigned int* last-block ticket
	pConst                    // a literal of the lambdas, by value (emitter.consts)
	pThreads                  // kSegMap: i64 threads of the launch (the scratch stride)
	pSpace                    // kSegMap: i64 size of index-space dimension k
	pScratch                  // kSegMap: u64* scratch slots
	pCap                      // kSegMap: i64 scratch slots per thread
	pAux                      // kSegMap: i64* scratch need, then array results' shapes
	pProbe                    // kSegMap: int, 1 for the probe launch
	pVecHost                  // kSegMap: int k of the host-checked vector path (vecFast): 0 ar_vok, 1 ar_vlo_h, 2 ar_vhi_h
)

type kparam struct {
	kind paramKind
	v    *core.Var // pScalar, pArray, pDim
	k    int       // component, input or output number; dimension for pDim
	t    core.PrimType
	name string     // pN, pExtra, pConst: the C name
	c    core.Const // pConst: the value
}

func (p kparam) decl() string {
	switch p.kind {
	case pN, pExtra, pThreads, pSpace, pCap:
		return "const i64 " + p.name
	case pScratch:
		return "u64 *__restrict__ ar_scratch"
	case pAux:
		return "i64 *__restrict__ ar_aux"
	case pProbe:
		return "const int ar_probe"
	case pVecHost:
		return "const int " + p.name
	case pErr:
		return "int *__restrict__ ar_err"
	case pScalar:
		return fmt.Sprintf("const %s %s", ctype(p.t), cname(p.v.Name))
	case pArray:
		return fmt.Sprintf("const %s *__restrict__ %s", ctype(p.t), cname(p.v.Name))
	case pDim:
		return fmt.Sprintf("const i64 %s_d%d", cname(p.v.Name), p.k)
	case pIn:
		return fmt.Sprintf("const %s *__restrict__ ar_in%d", ctype(p.t), p.k)
	case pOut:
		return fmt.Sprintf("%s *__restrict__ ar_out%d", ctype(p.t), p.k)
	case pPartial:
		return fmt.Sprintf("%s *__restrict__ ar_part%d", ctype(p.t), p.k)
	case pResult:
		return fmt.Sprintf("%s *__restrict__ ar_res%d", ctype(p.t), p.k)
	case pCounter:
		return "unsigned int *__restrict__ ar_counter"
	case pConst:
		return fmt.Sprintf("const %s %s", ctype(p.t), p.name)
	}
	return "/* bad parameter */"
}

// kernel is one generated kernel and everything the host needs to launch
// it.
type kernel struct {
	Name   string
	Kind   kernelKind
	Stmt   *core.Stmt
	Op     *core.Screma // the Screma (for kSegRed, the per-row one)
	Outer  []core.Atom  // kSegRed: the outer dimensions
	seg    segInfo      // kSegRed: the strategy (segred.go)
	Env    []*core.Var  // free variables of the lambdas, in order of use
	params []kparam

	Block, Unroll, Seq, Group int
	MinBlocks                 int // kRedOrdered: launch bounds' blocks per SM, if positive
	FoldUnroll                int // kRedOrdered: Limits.OrderedFoldUnroll (tileBody.FoldUnroll)

	In      []core.PrimType // element types of Op.Arrs
	Red     []core.PrimType // accumulator components, all reductions
	Out     []core.PrimType // map-out element types
	Neutral []string        // C renderings of the neutral elements
	Comm    bool

	fnMap, fnRed string   // device function names
	envArgs      string   // the env as arguments to device functions
	envDecl      []string // the env as parameters of device functions
	src          string   // the kernel's source, device functions included
	checks       bool     // the kernel may raise the error flag
	redArities   []int    // components per reduction
	tile         *tiled   // set for tiled kernels (tile.go), which launchTiled runs

	// kSegMap
	Nest    *nest
	Flat    bool   // kSegMap: the flat form (segmap.go, flatBases)
	Scratch bool   // takes the scratch buffer and probe (see segmap.go)
	Scalar  []bool // per result: one element per point (else an array)
	AuxOff  []int  // per array result: where its shape starts in ar_aux
	AuxLen  int    // words of ar_aux

	// Tiling describes the shared-memory tiling of a tiled kernel, for
	// plans ("" for none).
	Tiling string
	// Vector describes a segmented map's vector steps (vecstep.go), for
	// plans ("" for none).
	Vector string
	// vecHost is what the host checks for the host-checked vector path
	// (vecstep.go, vecFast); nil for none.
	vecHost *vecHost
}

// Params is the kernel's C parameter list.
func (k *kernel) Params() string {
	ds := make([]string, len(k.params))
	for i, p := range k.params {
		ds[i] = p.decl()
	}
	return strings.Join(ds, ", ")
}

// Tile is the number of elements an ordered-reduction warp takes at once.
func (k *kernel) Tile() int { return 32 * k.Seq }

// TileStride is the shared-memory slots of one warp's tile (padded).
func (k *kernel) TileStride() int { return k.Tile() + k.Tile()/32 + 1 }

// Pad is the shared-memory index function of ordered tiles: lanes read
// with stride Seq, which is conflict-free as it is when Seq is odd (coprime
// with the 32 banks) and needs ar_pad's skew when it is even. (Measured:
// padding an odd stride of 31 made every lane hit one bank.)
func (k *kernel) Pad() string {
	if k.Seq%2 == 1 {
		return ""
	}
	return "ar_pad"
}

// Warps is the number of warps in a block.
func (k *kernel) Warps() int { return k.Block / 32 }

// UnrollM1 is Unroll-1 (templates have no arithmetic).
func (k *kernel) UnrollM1() int { return k.Unroll - 1 }

// UnrollRange is 0..Unroll-1.
func (k *kernel) UnrollRange() []int {
	r := make([]int, k.Unroll)
	for i := range r {
		r[i] = i
	}
	return r
}

func ind(n int) string { return strings.Repeat(" ", n) }

// Decl declares accumulator variables name_0.. initialised to the neutral
// elements.
func (k *kernel) Decl(name string, indent int) string {
	var b strings.Builder
	for j, t := range k.Red {
		fmt.Fprintf(&b, "%s%s %s_%d = %s;\n", ind(indent), ctype(t), name, j, k.Neutral[j])
	}
	return strings.TrimRight(b.String(), "\n")
}

// Load reads one element of every input at idx into ar_x<sfx>_k.
func (k *kernel) Load(idx, _ string, sfx string, indent int) string {
	var b strings.Builder
	for j, t := range k.In {
		fmt.Fprintf(&b, "%s%s ar_x%s_%d = ar_in%d[%s];\n", ind(indent), ctype(t), sfx, j, j, idx)
	}
	return strings.TrimRight(b.String(), "\n")
}

// mapCall applies the map lambda to the loaded element: it declares the
// reduction inputs ar_y<sfx>_j, writes the map-outs at idx, and returns the
// names of the reduction inputs.
func (k *kernel) mapCall(b *strings.Builder, idx, lidx, sfx string, indent int) []string {
	args := []string{k.envArgs, "(i64)(" + lidx + ")"}
	for j := range k.In {
		args = append(args, fmt.Sprintf("ar_x%s_%d", sfx, j))
	}
	ys := make([]string, len(k.Red))
	for j, t := range k.Red {
		ys[j] = fmt.Sprintf("ar_y%s_%d", sfx, j)
		fmt.Fprintf(b, "%s%s %s;\n", ind(indent), ctype(t), ys[j])
		args = append(args, "&"+ys[j])
	}
	for j, t := range k.Out {
		fmt.Fprintf(b, "%s%s ar_o%s_%d;\n", ind(indent), ctype(t), sfx, j)
		args = append(args, fmt.Sprintf("&ar_o%s_%d", sfx, j))
	}
	fmt.Fprintf(b, "%s%s(%s);\n", ind(indent), k.fnMap, strings.Join(args, ", "))
	for j := range k.Out {
		fmt.Fprintf(b, "%sar_out%d[%s] = ar_o%s_%d;\n", ind(indent), j, idx, sfx, j)
	}
	return ys
}

func (k *kernel) combine(b *strings.Builder, acc string, xs []string, indent int) {
	args := []string{k.envArgs}
	for j := range k.Red {
		args = append(args, fmt.Sprintf("%s_%d", acc, j))
	}
	args = append(args, xs...)
	for j := range k.Red {
		args = append(args, fmt.Sprintf("&%s_%d", acc, j))
	}
	fmt.Fprintf(b, "%s%s(%s);\n", ind(indent), k.fnRed, strings.Join(args, ", "))
}

// Vec reports whether the commutative kernel may load 16-byte vectors:
// every input has 4-byte elements (device allocations are 256-byte
// aligned and the backend never passes an offset into one).
func (k *kernel) Vec() bool {
	// With map-outs, each thread would store four neighbours one by one,
	// which measured slower than striped scalar stores.
	if len(k.In) == 0 || len(k.Out) > 0 {
		return false
	}
	for _, t := range k.In {
		if t.Size() != 4 {
			return false
		}
	}
	return true
}

// LoadVec loads vector v (elements 4v..4v+3) of every input into
// ar_q<sfx>_k.
func (k *kernel) LoadVec(v, sfx string, indent int) string {
	var b strings.Builder
	for j := range k.In {
		fmt.Fprintf(&b, "%suint4 ar_q%s_%d = ((const uint4 *)ar_in%d)[%s];\n", ind(indent), sfx, j, j, v)
	}
	return strings.TrimRight(b.String(), "\n")
}

// ApplyVec maps and folds the four elements of a loaded vector in order.
func (k *kernel) ApplyVec(v, sfx, acc string, indent int) string {
	var b strings.Builder
	for e, c := range []string{"x", "y", "z", "w"} {
		s := fmt.Sprintf("%s%d", sfx, e)
		for j, t := range k.In {
			fmt.Fprintf(&b, "%s%s ar_x%s_%d = ar_bits_%s(ar_q%s_%d.%s);\n", ind(indent), ctype(t), s, j, ctype(t), sfx, j, c)
		}
		idx := fmt.Sprintf("4 * (%s) + %d", v, e)
		b.WriteString(k.Apply(idx, idx, s, acc, indent) + "\n")
	}
	return strings.TrimRight(b.String(), "\n")
}

// Apply maps the loaded element, writes map-outs and folds the reduction
// inputs into acc (if acc is not empty).
func (k *kernel) Apply(idx, lidx, sfx, acc string, indent int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s{\n", ind(indent))
	ys := k.mapCall(&b, idx, lidx, sfx, indent+2)
	if acc != "" && len(k.Red) > 0 {
		k.combine(&b, acc, ys, indent+2)
	}
	fmt.Fprintf(&b, "%s}", ind(indent))
	return b.String()
}

// ApplyTo maps the loaded element and stores the reduction inputs in the
// shared tile at slot.
func (k *kernel) ApplyTo(idx, lidx, sfx, tile, slot string, indent int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s{\n", ind(indent))
	ys := k.mapCall(&b, idx, lidx, sfx, indent+2)
	for j := range k.Red {
		fmt.Fprintf(&b, "%s%s_%d[%s] = %s;\n", ind(indent+2), tile, j, slot, ys[j])
	}
	fmt.Fprintf(&b, "%s}", ind(indent))
	return b.String()
}

// TransposeIn reports whether an ordered reduction transposes its inputs
// rather than the map's results: when there are no map-outs (which must be
// written coalesced, at load time) and the inputs are no wider than the
// accumulator, e.g. MSSP's one i32 against a 4-tuple.
func (k *kernel) TransposeIn() bool {
	if len(k.Out) > 0 {
		return false
	}
	in, red := 0, 0
	for _, t := range k.In {
		in += t.Size()
	}
	for _, t := range k.Red {
		red += t.Size()
	}
	return in <= red
}

// tileBody is an ordered reduction's kernel as its tile body sees it:
// Checked bodies test every index against ar_n (the last tile), the
// others run without tests (every full tile).
type tileBody struct {
	*kernel
	Checked bool
}

// Unroll is the pragma before each loop over a warp tile's Seq elements:
// full unrolling for the full tiles, where the loads in flight and
// constant shared-memory offsets are the kernel's speed, and none for the
// checked tile, which only the last tile of a launch runs: unrolled, its
// two loops of Seq inlined map and operator calls doubled the module's
// code and NVRTC's time for it.
func (b tileBody) Unroll() string {
	if b.Checked {
		return "#pragma unroll 1"
	}
	return "#pragma unroll"
}

// FoldUnroll is Unroll for the loop that folds a full tile's elements in
// lane order. A kernel that transposes its inputs (TransposeIn) applies the
// map in that loop too; with a tuple accumulator, as MSSP's, that body is
// large, and the loop is unrolled 4 times, not Seq: on an H200, MSSP's
// module compiled in 172-177 ms instead of 213-223 and ran in 0.2735 ms
// instead of 0.2730 (fully rolled: 168-170 ms and 0.2859 ms; bench/
// RESULTS.md, "Interactive latency", run 4). With one component (the u8
// test program) 4 saved no compile time, and the others' fold is a shared
// load and the operator: those stay fully unrolled, as measured before.
// Limits.OrderedFoldUnroll overrides the choice.
func (b tileBody) FoldUnroll() string {
	if b.Checked {
		return b.Unroll()
	}
	u := b.kernel.FoldUnroll
	if u == 0 && b.TransposeIn() && len(b.Red) > 1 {
		u = 4
	}
	if u > 0 {
		return fmt.Sprintf("#pragma unroll %d", u)
	}
	return "#pragma unroll"
}

// TileBody is the kernel for the "ordered_tile" template.
func (k *kernel) TileBody(checked bool) tileBody { return tileBody{k, checked} }

// OrderedBounds is the ordered reduction's __launch_bounds__.
func (k *kernel) OrderedBounds() string {
	if k.MinBlocks > 0 {
		return fmt.Sprintf("%d, %d", k.Block, k.MinBlocks)
	}
	return fmt.Sprint(k.Block)
}

// StoreIn copies element idx of every input into its shared tile.
func (k *kernel) StoreIn(idx, slot string, indent int) string {
	var b strings.Builder
	for j := range k.In {
		fmt.Fprintf(&b, "%sar_tin_%d[%s] = ar_in%d[%s];\n", ind(indent), j, slot, j, idx)
	}
	return strings.TrimRight(b.String(), "\n")
}

// LoadIn reads the inputs of one element back from the shared tiles into
// ar_x_k.
func (k *kernel) LoadIn(slot string, indent int) string {
	var b strings.Builder
	for j, t := range k.In {
		fmt.Fprintf(&b, "%s%s ar_x_%d = ar_tin_%d[%s];\n", ind(indent), ctype(t), j, j, slot)
	}
	return strings.TrimRight(b.String(), "\n")
}

// StoreNeutral fills a tile slot with the neutral element.
func (k *kernel) StoreNeutral(tile, slot string, indent int) string {
	var b strings.Builder
	for j := range k.Red {
		fmt.Fprintf(&b, "%s%s_%d[%s] = %s;\n", ind(indent), tile, j, slot, k.Neutral[j])
	}
	return strings.TrimRight(b.String(), "\n")
}

// TileDecl declares the shared tiles of an ordered reduction, one slice
// per warp, padded against bank conflicts (ar_pad).
func (k *kernel) TileDecl() string {
	var b strings.Builder
	if k.TransposeIn() {
		for j, t := range k.In {
			fmt.Fprintf(&b, "  __shared__ %s ar_tin_%d[%d];\n", ctype(t), j, k.Warps()*k.TileStride())
		}
		return strings.TrimRight(b.String(), "\n")
	}
	for j, t := range k.Red {
		fmt.Fprintf(&b, "  __shared__ %s ar_tile_%d[%d];\n", ctype(t), j, k.Warps()*k.TileStride())
	}
	return strings.TrimRight(b.String(), "\n")
}

// FoldFrom folds a tile slot into acc.
func (k *kernel) FoldFrom(acc, tile, slot string, indent int) string {
	var b strings.Builder
	xs := make([]string, len(k.Red))
	for j, t := range k.Red {
		xs[j] = fmt.Sprintf("ar_f_%d", j)
		fmt.Fprintf(&b, "%s%s %s = %s_%d[%s];\n", ind(indent), ctype(t), xs[j], tile, j, slot)
	}
	k.combine(&b, acc, xs, indent)
	return strings.TrimRight(b.String(), "\n")
}

// Combine folds accumulator src into dst.
func (k *kernel) Combine(dst, src string, indent int) string {
	var b strings.Builder
	xs := make([]string, len(k.Red))
	for j := range k.Red {
		xs[j] = fmt.Sprintf("%s_%d", src, j)
	}
	k.combine(&b, dst, xs, indent)
	return strings.TrimRight(b.String(), "\n")
}

// WarpReduce folds the 32 lanes' acc in lane order into lane 0 (offsets
// 1, 2, 4, ...: lane l then holds lanes l..l+2off-1, so the order is kept
// and non-commutative operators work).
func (k *kernel) WarpReduce(acc string, indent int) string {
	var b strings.Builder
	in := ind(indent)
	fmt.Fprintf(&b, "%sfor (int ar_off = 1; ar_off < 32; ar_off <<= 1) {\n", in)
	xs := make([]string, len(k.Red))
	for j, t := range k.Red {
		xs[j] = fmt.Sprintf("ar_s_%d", j)
		fmt.Fprintf(&b, "%s  %s %s = ar_shfl_down(%s_%d, ar_off);\n", in, ctype(t), xs[j], acc, j)
	}
	fmt.Fprintf(&b, "%s  if (((threadIdx.x & 31) & (2 * ar_off - 1)) == 0) {\n", in)
	k.combine(&b, acc, xs, indent+4)
	fmt.Fprintf(&b, "%s  }\n%s}", in, in)
	return b.String()
}

// BlockReduce folds every thread's acc in thread order into thread 0.
func (k *kernel) BlockReduce(acc string, indent int) string {
	var b strings.Builder
	in := ind(indent)
	fmt.Fprintf(&b, "%s{\n", in)
	b.WriteString(k.WarpReduce(acc, indent+2) + "\n")
	for j, t := range k.Red {
		fmt.Fprintf(&b, "%s  __shared__ %s ar_w_%d[32];\n", in, ctype(t), j)
	}
	fmt.Fprintf(&b, "%s  if ((threadIdx.x & 31) == 0) {\n", in)
	for j := range k.Red {
		fmt.Fprintf(&b, "%s    ar_w_%d[threadIdx.x >> 5] = %s_%d;\n", in, j, acc, j)
	}
	fmt.Fprintf(&b, "%s  }\n%s  __syncthreads();\n%s  if (threadIdx.x < 32) {\n", in, in, in)
	for j := range k.Red {
		fmt.Fprintf(&b, "%s    %s_%d = threadIdx.x < %d ? ar_w_%d[threadIdx.x] : %s;\n", in, acc, j, k.Block/32, j, k.Neutral[j])
	}
	b.WriteString(k.WarpReduce(acc, indent+4) + "\n")
	fmt.Fprintf(&b, "%s  }\n%s  __syncthreads();\n%s}", in, in, in)
	return b.String()
}

// Finish publishes the block's partial (thread 0's acc); the last block to
// arrive folds all partials in block order and writes the result.
func (k *kernel) Finish(acc string, indent int) string {
	var b strings.Builder
	in := ind(indent)
	fmt.Fprintf(&b, "%s__shared__ bool ar_last;\n%sif (threadIdx.x == 0) {\n", in, in)
	for j := range k.Red {
		fmt.Fprintf(&b, "%s  ar_part%d[blockIdx.x] = %s_%d;\n", in, j, acc, j)
	}
	fmt.Fprintf(&b, "%s  __threadfence();\n%s  ar_last = atomicAdd(ar_counter, 1u) == gridDim.x - 1;\n%s}\n%s__syncthreads();\n", in, in, in, in)
	fmt.Fprintf(&b, "%sif (ar_last) {\n%s  __threadfence();\n", in, in)
	b.WriteString(k.Decl("ar_p", indent+2) + "\n")
	fmt.Fprintf(&b, "%s  const int ar_c = (gridDim.x + %d - 1) / %d;\n", in, k.Block, k.Block)
	fmt.Fprintf(&b, "%s  const int ar_e = min((int)gridDim.x, ((int)threadIdx.x + 1) * ar_c);\n", in)
	fmt.Fprintf(&b, "%s  for (int ar_j = threadIdx.x * ar_c; ar_j < ar_e; ar_j++) {\n", in)
	xs := make([]string, len(k.Red))
	for j, t := range k.Red {
		xs[j] = fmt.Sprintf("ar_q_%d", j)
		fmt.Fprintf(&b, "%s    %s %s = ((volatile %s *)ar_part%d)[ar_j];\n", in, ctype(t), xs[j], ctype(t), j)
	}
	k.combine(&b, "ar_p", xs, indent+4)
	fmt.Fprintf(&b, "%s  }\n", in)
	b.WriteString(k.BlockReduce("ar_p", indent+2) + "\n")
	fmt.Fprintf(&b, "%s  if (threadIdx.x == 0) {\n", in)
	for j := range k.Red {
		fmt.Fprintf(&b, "%s    ar_res%d[0] = ar_p_%d;\n", in, j, j)
	}
	fmt.Fprintf(&b, "%s    *ar_counter = 0;\n%s  }\n%s}", in, in, in)
	return b.String()
}

// StoreResult writes acc as the result of segment seg.
func (k *kernel) StoreResult(acc, seg string, indent int) string {
	var b strings.Builder
	for j := range k.Red {
		fmt.Fprintf(&b, "%sar_res%d[%s] = %s_%d;\n", ind(indent), j, seg, acc, j)
	}
	return strings.TrimRight(b.String(), "\n")
}

var templates = func() *template.Template {
	t := template.New("kernels")
	for _, f := range append(templateFile[:], segTemplate[:]...) {
		if f == "" || t.Lookup(f) != nil {
			continue
		}
		src, err := kernels.FS.ReadFile(f)
		if err != nil {
			panic("gpu: embedded template missing: " + f)
		}
		template.Must(t.New(f).Parse(string(src)))
	}
	return t
}()

func (k *kernel) instantiate() (string, error) {
	var b bytes.Buffer
	name := templateFile[k.Kind]
	if k.Kind == kSegRed {
		name = k.segTemplateName()
	}
	if err := templates.ExecuteTemplate(&b, name, k); err != nil {
		return "", fmt.Errorf("internal error: kernel template %s: %v", name, err)
	}
	return b.String(), nil
}
