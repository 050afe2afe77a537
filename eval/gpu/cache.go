package gpu

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
)

// cacheDir is where compiled cubins live: $XDG_CACHE_HOME/arepl, or
// ~/.cache/arepl. A cubin's file name is the hash of everything that
// determines it (source, architecture, NVRTC version), so a stale entry
// can never be picked up and a second session compiles nothing.
func cacheDir() string {
	if d := os.Getenv("XDG_CACHE_HOME"); d != "" {
		return filepath.Join(d, "arepl")
	}
	if h, err := os.UserHomeDir(); err == nil {
		return filepath.Join(h, ".cache", "arepl")
	}
	return filepath.Join(os.TempDir(), "arepl-cache")
}

func cacheKey(parts ...string) string {
	h := sha256.New()
	for _, p := range parts {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))
}

func cacheLoad(dir, key string) ([]byte, bool) {
	b, err := os.ReadFile(filepath.Join(dir, key+".cubin"))
	return b, err == nil && len(b) > 0
}

// cacheStore writes atomically (temporary file, then rename) so that a
// concurrent session never reads half a cubin. Failing to cache is not an
// error: the next session compiles again.
func cacheStore(dir, key string, cubin []byte) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return
	}
	f, err := os.CreateTemp(dir, key+".*.tmp")
	if err != nil {
		return
	}
	_, werr := f.Write(cubin)
	cerr := f.Close()
	if werr != nil || cerr != nil {
		os.Remove(f.Name())
		return
	}
	if os.Rename(f.Name(), filepath.Join(dir, key+".cubin")) != nil {
		os.Remove(f.Name())
	}
}
