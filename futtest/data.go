package futtest

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strings"

	"github.com/arepl/arepl/eval"
	"github.com/arepl/arepl/lang/core"
	"github.com/arepl/arepl/lang/lower"
	"github.com/arepl/arepl/lang/types"
)

// maxDataBytes bounds a data file (`input @ file`, `$loaddata`), after
// decompression.
const maxDataBytes = 1 << 30

// readDataFile reads the values of `input @ path` (path relative to the
// test program's folder dir) as the given types: Futhark's text value
// format, or its binary data format (what `futhark dataset -b` writes),
// either of them gzipped when the name ends in .gz, as futhark test
// accepts.
func readDataFile(ctx context.Context, dir, path string, want []types.Type) ([][]eval.Value, error) {
	raw, err := loadFile(ctx, dir, path)
	if err != nil {
		return nil, err
	}
	if isBinaryValue(raw) {
		return readBinaryValues(path, raw, want)
	}
	return eval.ReadValuesFile(path, string(raw), want)
}

// loadFile reads a data file, gunzipping a .gz one.
func loadFile(ctx context.Context, dir, path string) ([]byte, error) {
	full := path
	if !filepath.IsAbs(full) {
		full = filepath.Join(dir, path)
	}
	raw, err := eval.ReadFileLimited(ctx, full, maxDataBytes)
	if err != nil {
		return nil, err
	}
	if !strings.HasSuffix(path, ".gz") {
		return raw, nil
	}
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	out, err := io.ReadAll(io.LimitReader(zr, maxDataBytes+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	if len(out) > maxDataBytes {
		return nil, fmt.Errorf("%s: more than %d bytes once decompressed", path, maxDataBytes)
	}
	return out, nil
}

// isBinaryValue reports whether data starts (after white space) with a
// value in Futhark's binary format: 'b' and format version 2.
func isBinaryValue(data []byte) bool {
	data = bytes.TrimLeft(data, " \t\r\n")
	return len(data) >= 2 && data[0] == 'b' && data[1] == 2
}

// binaryTypes maps the four-character type names of the binary format.
var binaryTypes = map[string]core.PrimType{
	"bool": core.Bool, "  i8": core.I8, " i16": core.I16, " i32": core.I32, " i64": core.I64,
	"  u8": core.U8, " u16": core.U16, " u32": core.U32, " u64": core.U64, " f32": core.F32, " f64": core.F64, " f16": core.F16,
}

// readBinaryValues reads values in Futhark's binary data format (each: 'b',
// version 2, rank, a four-character type, the shape as rank little-endian
// i64s, then the elements little-endian) and groups them by the flat
// components of want.
func readBinaryValues(name string, data []byte, want []types.Type) ([][]eval.Value, error) {
	var flat []eval.Value
	for {
		data = bytes.TrimLeft(data, " \t\r\n")
		if len(data) == 0 {
			break
		}
		if !isBinaryValue(data) {
			return nil, fmt.Errorf("%s: value %d: a file mixing binary and text values is not supported", name, len(flat)+1)
		}
		v, rest, err := binaryValue(data)
		if err != nil {
			return nil, fmt.Errorf("%s: value %d: %v", name, len(flat)+1, err)
		}
		flat = append(flat, v)
		data = rest
	}
	var out [][]eval.Value
	for i, t := range want {
		comps := lower.Flatten(t)
		if len(flat) < len(comps) {
			return nil, fmt.Errorf("%s: %d values for %d parameters", name, len(out), len(want))
		}
		for k, c := range comps {
			v := flat[k]
			if v.Elem != c.Elem || len(v.Shape) != c.Rank {
				return nil, fmt.Errorf("%s: argument %d has type %s, not the %s of a %s", name, i+1, binaryTypeText(v), core.Type{Elem: c.Elem, Rank: c.Rank}, t)
			}
		}
		out = append(out, flat[:len(comps)])
		flat = flat[len(comps):]
	}
	if len(flat) > 0 {
		return nil, fmt.Errorf("%s: %d values more than the %d parameters take", name, len(flat), len(want))
	}
	return out, nil
}

func binaryTypeText(v eval.Value) string {
	return strings.Repeat("[]", len(v.Shape)) + v.Elem.String()
}

// binaryValue decodes one binary value at the start of data.
func binaryValue(data []byte) (eval.Value, []byte, error) {
	if len(data) < 7 {
		return eval.Value{}, nil, fmt.Errorf("truncated header")
	}
	rank := int(int8(data[2]))
	elem, ok := binaryTypes[string(data[3:7])]
	if !ok || rank < 0 {
		return eval.Value{}, nil, fmt.Errorf("unknown type %q or rank %d", data[3:7], rank)
	}
	data = data[7:]
	if len(data) < 8*rank {
		return eval.Value{}, nil, fmt.Errorf("truncated shape")
	}
	shape := make([]int64, rank)
	n := int64(1)
	for i := range shape {
		d := int64(binary.LittleEndian.Uint64(data[8*i:]))
		if d < 0 || (d > 0 && n > math.MaxInt64/d) {
			return eval.Value{}, nil, fmt.Errorf("bad shape")
		}
		shape[i] = d
		n *= d
	}
	data = data[8*rank:]
	size := int64(elem.Bits() / 8)
	if elem == core.Bool {
		size = 1
	}
	if n > int64(len(data))/size {
		return eval.Value{}, nil, fmt.Errorf("truncated data: %d elements of shape %v", n, shape)
	}
	body := data[:n*size]
	v := eval.Value{Elem: elem, Shape: shape, Data: decodeElems(elem, body, int(n))}
	return v, data[n*size:], nil
}

// decodeElems turns little-endian elements into the typed slice eval.Value
// holds for elem.
func decodeElems(elem core.PrimType, b []byte, n int) any {
	le := binary.LittleEndian
	switch elem {
	case core.Bool:
		out := make([]bool, n)
		for i := range out {
			out[i] = b[i] != 0
		}
		return out
	case core.I8:
		out := make([]int8, n)
		for i := range out {
			out[i] = int8(b[i])
		}
		return out
	case core.U8:
		return append([]uint8(nil), b[:n]...)
	case core.I16:
		out := make([]int16, n)
		for i := range out {
			out[i] = int16(le.Uint16(b[2*i:]))
		}
		return out
	case core.U16:
		out := make([]uint16, n)
		for i := range out {
			out[i] = le.Uint16(b[2*i:])
		}
		return out
	case core.I32:
		out := make([]int32, n)
		for i := range out {
			out[i] = int32(le.Uint32(b[4*i:]))
		}
		return out
	case core.U32:
		out := make([]uint32, n)
		for i := range out {
			out[i] = le.Uint32(b[4*i:])
		}
		return out
	case core.I64:
		out := make([]int64, n)
		for i := range out {
			out[i] = int64(le.Uint64(b[8*i:]))
		}
		return out
	case core.U64:
		out := make([]uint64, n)
		for i := range out {
			out[i] = le.Uint64(b[8*i:])
		}
		return out
	case core.F32:
		out := make([]float32, n)
		for i := range out {
			out[i] = math.Float32frombits(le.Uint32(b[4*i:]))
		}
		return out
	case core.F16: // held as the float32 of the same value
		out := make([]float32, n)
		for i := range out {
			out[i] = core.HalfFloat(le.Uint16(b[2*i:]))
		}
		return out
	case core.F64:
		out := make([]float64, n)
		for i := range out {
			out[i] = math.Float64frombits(le.Uint64(b[8*i:]))
		}
		return out
	}
	panic(fmt.Sprintf("futtest: no element decoder for %s", elem))
}
