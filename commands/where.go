package commands

import (
	"context"
	"fmt"
	"strings"

	"github.com/arepl/arepl/eval"
)

func init() {
	Register(&Command{Name: "where", Args: "EXPR",
		Help:    "show where the value of EXPR lives: the host, the GPU, or blocks of its outer dimension on several devices (--devices)",
		Example: "ys", Run: cmdWhere})
}

// placer is a device array that can say where it lives (eval/shard's
// sharded and per-device arrays).
type placer interface{ Placement() string }

// Placement says where v lives, in words.
func Placement(v eval.Value) string {
	switch d := v.Dev.(type) {
	case nil:
		return "on the host"
	case placer:
		return d.Placement()
	}
	return "on the GPU"
}

func cmdWhere(ctx context.Context, st *State, arg string) (Reply, error) {
	if arg == "" {
		return Reply{}, errUsage("where", "an expression")
	}
	res, err := st.Sess.Eval(ctx, st.ArgName, arg)
	if err != nil {
		return Reply{}, err
	}
	var b strings.Builder
	for i, v := range res.Values {
		if len(res.Values) > 1 {
			fmt.Fprintf(&b, "%s.%d", arg, i)
		} else {
			b.WriteString(arg)
		}
		fmt.Fprintf(&b, " : %v %s\n", v.Type(), Placement(v))
	}
	return Reply{Text: strings.TrimRight(b.String(), "\n")}, nil
}
