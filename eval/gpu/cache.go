package gpu

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"sync"
)

// cacheDir is where compiled cubins live: $XDG_CACHE_HOME/arepl,
// ~/.cache/arepl, or, with neither, a per-user directory under the system's
// temporary directory (arepl-cache-UID). A cubin's file name is the hash of
// everything that determines it (source, architecture, NVRTC version), so a
// stale entry can never be picked up and a second session compiles nothing.
//
// A cubin is code the process loads onto the GPU and runs, so the cache is
// trusted only when no one else can write to it: the directory is created
// 0700, and a directory or file that is not the user's own, or that others
// may write, is not used (cacheUsable); each file carries a hash binding its
// content to its key, checked on load (cacheLoad).
func cacheDir() string {
	if d := os.Getenv("XDG_CACHE_HOME"); d != "" {
		return filepath.Join(d, "arepl")
	}
	if h, err := os.UserHomeDir(); err == nil {
		return filepath.Join(h, ".cache", "arepl")
	}
	return filepath.Join(os.TempDir(), "arepl-cache-"+strconv.Itoa(os.Getuid()))
}

func cacheKey(parts ...string) string {
	h := sha256.New()
	for _, p := range parts {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))
}

// cacheSeal is the trailer of a cached file: the hash of the key and the
// cubin, so that a file renamed, truncated or written by anything but
// cacheStore is not loaded.
func cacheSeal(key string, cubin []byte) []byte {
	h := sha256.New()
	h.Write([]byte(key))
	h.Write([]byte{0})
	h.Write(cubin)
	return h.Sum(nil)
}

// cacheWarn says, once per path, why a cache directory or file is not
// used (on stderr: the REPL's terminal, the kernel's log).
var (
	cacheWarned sync.Map
	cacheWarn   = func(path string, why string) {
		if _, dup := cacheWarned.LoadOrStore(path, true); !dup {
			fmt.Fprintf(os.Stderr, "arepl: not using the cubin cache %s: %s\n", path, why)
		}
	}
)

// cacheUsable checks that fi (from Lstat) is a directory (dir) or a regular
// file owned by uid that nobody else may write. A directory of ours that
// others may only read (an earlier arepl made it 0755) is tightened to
// 0700.
func cacheUsable(path string, fi fs.FileInfo, uid int, dir bool) error {
	switch {
	case dir && !fi.IsDir():
		return fmt.Errorf("not a directory")
	case !dir && !fi.Mode().IsRegular():
		return fmt.Errorf("not a regular file")
	}
	if owner, ok := fileOwner(fi); ok && owner != uid {
		return fmt.Errorf("owned by uid %d, not %d", owner, uid)
	}
	if fi.Mode().Perm()&0o022 != 0 {
		return fmt.Errorf("mode %v lets others write to it", fi.Mode().Perm())
	}
	if dir && fi.Mode().Perm()&0o077 != 0 {
		if err := os.Chmod(path, 0o700); err != nil {
			return err
		}
	}
	return nil
}

// cacheOpenDir checks dir (creating it 0700 when create and it is missing)
// and reports whether the cache may use it.
func cacheOpenDir(dir string, create bool) bool {
	if create {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return false
		}
	}
	fi, err := os.Lstat(dir)
	if err != nil {
		return false
	}
	if err := cacheUsable(dir, fi, os.Getuid(), true); err != nil {
		cacheWarn(dir, err.Error())
		return false
	}
	return true
}

func cacheLoad(dir, key string) ([]byte, bool) {
	if !cacheOpenDir(dir, false) {
		return nil, false
	}
	path := filepath.Join(dir, key+".cubin")
	fi, err := os.Lstat(path)
	if err != nil {
		return nil, false
	}
	if err := cacheUsable(path, fi, os.Getuid(), false); err != nil {
		cacheWarn(path, err.Error())
		return nil, false
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, false
	}
	n := len(b) - sha256.Size
	if n <= 0 || !bytes.Equal(b[n:], cacheSeal(key, b[:n])) {
		// Written by an older arepl, cut short, or not ours: compile
		// again, and the store replaces it.
		return nil, false
	}
	return b[:n], true
}

// cacheStore writes atomically (temporary file, then rename) so that a
// concurrent session never reads half a cubin. Failing to cache is not an
// error: the next session compiles again.
func cacheStore(dir, key string, cubin []byte) {
	if !cacheOpenDir(dir, true) {
		return
	}
	f, err := os.CreateTemp(dir, key+".*.tmp") // mode 0600
	if err != nil {
		return
	}
	_, werr := f.Write(append(cubin[:len(cubin):len(cubin)], cacheSeal(key, cubin)...))
	cerr := f.Close()
	if werr != nil || cerr != nil {
		os.Remove(f.Name())
		return
	}
	if os.Rename(f.Name(), filepath.Join(dir, key+".cubin")) != nil {
		os.Remove(f.Name())
	}
}
