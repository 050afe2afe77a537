// Package jupyter is arepl's Jupyter kernel: the messaging protocol (5.3)
// over ZeroMQ, and request handlers that run notebook cells on the same
// eval.Session as the REPL.
//
// # Layers
//
//   - wire.go: the wire format. A message is identities, "<IDS|MSG>", an
//     HMAC-SHA256 signature and four JSON objects (header, parent header,
//     metadata, content), then binary buffers. decode checks every frame
//     and returns a *WireError for anything malformed, unsigned, badly
//     signed or replayed; the kernel logs those (rate-limited: ratelimit.go)
//     and drops them, and never stops for one. Signatures are compared in
//     constant time, and remembered as bytes for replay detection.
//   - The transport is zmq4, patched (third_party/zmq4/PATCHED.md) so that
//     no peer can end the process: messages are bounded (maxMessageSize)
//     before allocation, handshakes are concurrent and time-limited.
//   - socket.go: one writer per socket. Shell, control and stdin are ROUTER
//     sockets whose sends go through a mutex, and a reply always leaves on
//     the channel its request came in on, to its routing identities (the
//     bug of two other Go kernels, which answer control requests on shell).
//     iopub is a PUB socket owned by the publisher, which coalesces stream
//     text (every 50 ms, before any other iopub message, and at 256 KiB) so
//     a flood of prints becomes a few messages and arrives whole.
//   - kernel.go: the process. Three receive loops decode messages; shell
//     requests go through a queue to one executor goroutine, so a cell runs
//     to completion before the next and requests queued behind a failed
//     cell can be aborted (stop_on_error). What no client waits for is done
//     after a request's idle status, before the next is read: binding the
//     cell's _N, and pacing the garbage collector (gc.go: a small live heap
//     gets 64 MiB of room, so collections do not land inside cells). Control requests are served on
//     their own goroutine, so interrupt and shutdown work while a cell runs.
//     SIGINT cancels the running cell (interrupt_mode "signal"); so does an
//     interrupt_request (mode "message", the default of Install). The
//     kernel exits after a shutdown_request, on SIGTERM, or when the
//     process in JPY_PARENT_PID is gone.
//   - handlers.go: the request table. Every request on shell and control
//     is wrapped in busy and idle status messages whose parent is the
//     request; unknown requests get an error reply rather than silence.
//     An execute_reply's metadata reports where the kernel's time went, per
//     stage from the arrival of the request (stages.go), for benchmarks
//     that split a round trip between kernel and client.
//   - evaluator.go, cell.go, commands.go: cells. A cell is split into
//     items (declarations, expressions, one-line :commands) evaluated in
//     order; errors point at the cell's line and column. The last
//     expression's value is the execute_result: the REPL's text plus an
//     HTML table for one- and two-dimensional arrays (display.go adds the
//     timing table of :time on). The :commands are package commands'
//     table, the one the REPL serves too; commands.go shows their replies
//     (rich data such as :plan's SVG as display data, long text in the
//     pager) and gives them the cell's stdin and output.
//   - complete.go, history.go: completion and inspection (cursor
//     positions are Unicode code points on the wire and bytes in Go),
//     is_complete from the parser's incomplete-input signal, and history.
//   - install.go: the kernelspec (kernel.json and logos).
//
// The kernel is tested at two levels: Go tests drive it through a zmq4
// client with a fake session (kernel_test.go, execute_test.go), and
// test.sh runs it under Debian's Jupyter clients (jupyter_kernel_test,
// jupyter_client, jupyter console, nbconvert on examples/*.ipynb, and
// testdata/hostile_client.py under ulimit -v); hostile_test.go plays a
// hostile local process in Go.
package jupyter
