package jupyter

import (
	"fmt"
	"html"
	"strconv"
	"strings"
	"time"

	"github.com/arepl/arepl/eval"
)

// timingBundle renders what one input cost: the REPL's one-line summary as
// text, and a table of stages and kernels (time, bytes moved, bandwidth)
// as HTML. Stages that took no time are left out; the compile stage stays
// when its module came from the cache, since that is worth knowing.
func timingBundle(t eval.Timings) bundle {
	var b strings.Builder
	b.WriteString(`<table class="arepl-timings"><caption>`)
	caption := "timings"
	if t.Backend != "" {
		caption += " on " + t.Backend
	}
	b.WriteString(html.EscapeString(caption))
	b.WriteString(`</caption><thead><tr><th style="text-align:left">stage</th><th>time</th><th>bytes</th><th>GB/s</th></tr></thead><tbody>`)
	row := func(name string, d time.Duration, bytes int64, kernel bool) {
		if !kernel && d <= 0 && !strings.Contains(name, "cache hit") {
			return
		}
		bw, bs := "", ""
		if kernel {
			bs = formatBytes(bytes)
			if g, ok := bandwidth(bytes, d); ok {
				bw = formatGBs(g)
			}
		}
		fmt.Fprintf(&b, `<tr><td style="text-align:left">%s</td><td>%s</td><td>%s</td><td>%s</td></tr>`,
			html.EscapeString(name), formatDuration(d), bs, bw)
	}
	row("parse and check", t.Parse, 0, false)
	row("lower", t.Lower, 0, false)
	row("fuse", t.Fuse, 0, false)
	compile := "compile"
	switch {
	case t.CacheHit:
		compile += " (cache hit)"
	case t.FastTier:
		compile += " (cache miss; fast tier, optimised module in the background)"
	case t.Compile > 0:
		compile += " (cache miss)"
	}
	row(compile, t.Compile, 0, false)
	row("transfers", t.Transfer, 0, false)
	row("run", t.Run, 0, false)
	row("other (session, values, sizes)", t.Other(), 0, false)
	for _, k := range t.Kernels {
		row("kernel "+k.Name, k.Time, k.Bytes, true)
	}
	fmt.Fprintf(&b, `<tr><th style="text-align:left">total</th><th>%s</th><th></th><th></th></tr>`, formatDuration(t.Total))
	b.WriteString("</tbody></table>")
	for _, n := range t.Notes {
		b.WriteString("<p>" + html.EscapeString(n) + "</p>")
	}
	text := eval.FormatTimings(t)
	for _, k := range t.Kernels {
		text += fmt.Sprintf("\n  %s: %s, %s", k.Name, formatDuration(k.Time), formatBytes(k.Bytes))
		if g, ok := bandwidth(k.Bytes, k.Time); ok {
			text += ", " + formatGBs(g) + " GB/s"
		}
	}
	for _, n := range t.Notes {
		text += "\nnote: " + n
	}
	return bundle{"text/plain": text, "text/html": b.String()}
}

// bandwidth is bytes/d in GB/s, for every kernel that took time: the
// bytes are what its inputs and outputs hold, known without measuring. A
// small kernel's figure is tiny and says that launch and scheduling, not
// memory, took its time, which is worth seeing too.
func bandwidth(bytes int64, d time.Duration) (float64, bool) {
	if d <= 0 {
		return 0, false
	}
	return float64(bytes) / d.Seconds() / 1e9, true
}

// formatGBs prints a bandwidth with three significant digits and no
// exponent: 8.39, 0.0123, 0.000008.
func formatGBs(g float64) string {
	if g == 0 {
		return "0"
	}
	r, _ := strconv.ParseFloat(strconv.FormatFloat(g, 'g', 3, 64), 64)
	return strconv.FormatFloat(r, 'f', -1, 64)
}

// formatDuration prints d with three significant digits.
func formatDuration(d time.Duration) string {
	switch {
	case d <= 0:
		return ""
	case d < time.Microsecond:
		return fmt.Sprintf("%d ns", d.Nanoseconds())
	case d < time.Millisecond:
		return fmt.Sprintf("%.3g µs", float64(d)/float64(time.Microsecond))
	case d < time.Second:
		return fmt.Sprintf("%.3g ms", float64(d)/float64(time.Millisecond))
	}
	return fmt.Sprintf("%.3g s", d.Seconds())
}

// formatBytes prints a byte count in binary units.
func formatBytes(n int64) string {
	units := []string{"B", "KiB", "MiB", "GiB", "TiB"}
	f := float64(n)
	i := 0
	for f >= 1024 && i < len(units)-1 {
		f /= 1024
		i++
	}
	if i == 0 {
		return fmt.Sprintf("%d B", n)
	}
	return fmt.Sprintf("%.1f %s", f, units[i])
}
