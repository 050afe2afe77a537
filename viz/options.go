package viz

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/arepl/arepl/eval"
	"github.com/arepl/arepl/lang/types"
)

// Options are the `key=value` settings after a command's expression.
type Options map[string]string

// ParseArg splits a command argument `EXPR; key=value, key=value` into
// the expression and its options. The expression may not contain a
// semicolon, which Futhark expressions never need.
func ParseArg(arg string) (expr string, opts Options, err error) {
	expr, rest, _ := strings.Cut(arg, ";")
	expr = strings.TrimSpace(expr)
	opts = Options{}
	for _, kv := range strings.FieldsFunc(rest, func(r rune) bool { return r == ',' || r == ';' }) {
		k, v, ok := strings.Cut(kv, "=")
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		if k == "" {
			continue
		}
		if !ok {
			// A bare word is a flag: `; bars` means style=bars.
			k, v = "style", k
		}
		if _, dup := opts[k]; dup {
			return "", nil, fmt.Errorf("option %s given twice", k)
		}
		opts[k] = v
	}
	return expr, opts, nil
}

// check rejects options not in known.
func (o Options) check(cmd string, known ...string) error {
	var bad []string
	for k := range o {
		found := false
		for _, n := range known {
			found = found || k == n
		}
		if !found {
			bad = append(bad, k)
		}
	}
	if len(bad) > 0 {
		sort.Strings(bad)
		return fmt.Errorf(":%s: unknown option %s (known: %s)", cmd, strings.Join(bad, ", "), strings.Join(known, ", "))
	}
	return nil
}

// intOpt reads a positive integer option, def when absent.
func (o Options) intOpt(key string, def, max int) (int, error) {
	s, ok := o[key]
	if !ok {
		return def, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 || n > max {
		return 0, fmt.Errorf("option %s wants a whole number from 1 to %d, not %q", key, max, s)
	}
	return n, nil
}

// Renderer is the signature PNG, GIF and Plot share, so a front end can
// treat the picture commands alike.
type Renderer func(ctx context.Context, t types.Type, vals []eval.Value, opts Options) ([]byte, error)

// commandErr is err as a command reports it: prefixed with the command's
// name unless it names it already.
func commandErr(cmd string, err error) error {
	if strings.HasPrefix(err.Error(), ":") {
		return err
	}
	return fmt.Errorf(":%s: %w", cmd, err)
}
