// Package viz turns values into pictures: a 2-D array into a PNG image, a
// 3-D array into an animated GIF, one or more 1-D series into an SVG chart.
// It is the rendering half of the :img, :video and :plot commands; the
// front ends (the REPL, the Jupyter kernel) evaluate the expression,
// hand its source type and flat values here, and decide where the bytes
// go (a file and its path printed, or an inline display_data bundle).
//
// The design follows `futhark literate`, so a program written for it
// shows the same picture here:
//
//   - [][]u32 and [][]i32 are pixels 0xAARRGGBB. The alpha byte is
//     ignored (every pixel is opaque): most programs build colours as
//     (r<<16)|(g<<8)|b and leave it zero.
//   - [][]f32 and [][]f64 are grey levels in [0, 1], clamped.
//   - [][]u8 are grey levels in [0, 255].
//   - [][]bool are black (false) and white (true).
//
// Beyond futhark literate, a palette (`palette=viridis`) colours any
// numeric 2-D array as scalar data: values already in [0, 1] are used as
// they are, anything else is stretched from its minimum to its maximum,
// so an iteration count or a temperature field needs no normalising.
// Small images are enlarged by an integer factor (nearest neighbour) so a
// 16×16 board is visible; `scale=1` keeps the array's own size.
//
// Options follow the expression after a semicolon, as in futhark
// literate's directives: `e; palette=viridis, scale=4`. They are parsed by
// ParseArg; each renderer reads the ones that concern it and rejects
// unknown ones, so a typo is an error rather than a silent default.
//
// Charts are drawn by gonum.org/v1/plot through its SVG canvas only (not
// its all-formats vgall), which keeps the PDF and LaTeX back ends out of
// the binary. Values are fetched from the device with Value.Host; nothing
// here knows about backends, sessions or front ends.
package viz
