package gpu

// scatter on the GPU: one thread per element (kernels/scatter.cu), the
// fused map giving an index and a value per destination. The destinations
// are copied first (the statement's results are new arrays), then written
// in place; out-of-range indices are ignored as in Futhark.

import (
	"fmt"
	"strings"

	"github.com/arepl/arepl/lang/core"
)

func (g *histGen) scatter(s *core.Stmt, sc *core.Scatter) (*histKernel, error) {
	k := &histKernel{Name: "k_scatter", Kind: hkScatter, Stmt: s, Block: g.block, W: sc.W, Arrs: sc.Arrs}
	if err := k.inputs("scatter"); err != nil {
		return nil, err
	}
	if sc.Map == nil {
		return nil, fmt.Errorf("internal error: scatter without a map")
	}
	k.params = []hParam{{kind: hpN}}
	if err := g.env(k, []*core.Lambda{sc.Map}, sc.Index, nil); err != nil {
		return nil, err
	}
	for j, t := range k.In {
		k.params = append(k.params, hParam{kind: hpIn, k: j, t: t})
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\n// %s: %s at %v\n", k.Name, expName(sc), s.Pos)
	if err := g.mapFun(&b, k, sc.Map, sc.Index); err != nil {
		return nil, err
	}
	if len(k.MapTs) != 2*len(sc.Dests) {
		return nil, fmt.Errorf("internal error: scatter map gives %d results for %d destinations", len(k.MapTs), len(sc.Dests))
	}
	for j, d := range sc.Dests {
		if d.Type.Rank != 1 {
			return nil, unsup("scatter into rows of %s is not generated yet", d.Name)
		}
		if k.MapTs[2*j] != core.I64 || k.MapTs[2*j+1] != d.Type.Elem {
			return nil, fmt.Errorf("internal error: scatter map gives %v, %v for a destination of %v", k.MapTs[2*j], k.MapTs[2*j+1], d.Type.Elem)
		}
		k.dests = append(k.dests, []*core.Var{d})
		k.params = append(k.params, hParam{kind: hpH, k: j}, hParam{kind: hpDst, k: j, t: d.Type.Elem})
	}
	return g.finish(&b, k)
}

// ScatterWrites writes every destination's value where its index is in
// range.
func (k *histKernel) ScatterWrites() string {
	var b strings.Builder
	for j := range k.dests {
		fmt.Fprintf(&b, "  if (ar_x%d >= 0 && ar_x%d < ar_h%d) ar_dst%d_0[ar_x%d] = ar_x%d;\n", 2*j, 2*j, j, j, 2*j, 2*j+1)
	}
	return b.String()
}
