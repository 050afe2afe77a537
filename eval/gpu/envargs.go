package gpu

import "github.com/arepl/arepl/eval"

// envArgBytes marshals a kernel's environment parameters for the launch
// paths whose parameter lists mix them with their own (segmap.go, tile.go):
// the argument is envArg's (scan_run.go), the one marshalling of the error
// flag, free scalars, free arrays and their dimensions that every kernel
// family shares; bytes is what the launch reads of a free array; ok is
// false for a parameter of any other kind, which the caller passes itself.
func (r *run) envArgBytes(p kparam, env map[string]eval.Value) (arg any, bytes int64, ok bool, err error) {
	switch p.kind {
	case pErr, pScalar, pArray, pDim:
	default:
		return nil, 0, false, nil
	}
	if arg, err = r.envArg(p, env); err != nil || p.kind != pArray {
		return arg, 0, true, err
	}
	d, _, err := r.device(p.v, env) // on the device already: envArg put it there
	if err != nil {
		return nil, 0, true, err
	}
	return arg, d.bytes, true, nil
}
