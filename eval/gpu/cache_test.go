package gpu

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestCacheDirIsPerUser: with neither XDG_CACHE_HOME nor HOME, the cache
// must not be a directory shared by every user of the machine.
func TestCacheDirIsPerUser(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", "")
	t.Setenv("HOME", "")
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	d := cacheDir()
	if want := filepath.Join(tmp, "arepl-cache-"+strconv.Itoa(os.Getuid())); d != want {
		t.Fatalf("cacheDir() = %s, want %s", d, want)
	}
	cacheStore(d, "k", []byte("cubin"))
	fi, err := os.Stat(d)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o700 {
		t.Errorf("cache directory created %v, want 0700", fi.Mode().Perm())
	}
	fi, err = os.Stat(filepath.Join(d, "k.cubin"))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("cached file: %v, %v; want mode 0600", fi, err)
	}
	if b, ok := cacheLoad(d, "k"); !ok || string(b) != "cubin" {
		t.Errorf("cacheLoad after cacheStore = %q, %v", b, ok)
	}
}

// TestCacheRefusesPlantedCubins: a directory others can write, a directory
// of another user and files not written by cacheStore for their key are
// not loaded.
func TestCacheRefusesPlantedCubins(t *testing.T) {
	var warned []string
	saved := cacheWarn
	cacheWarn = func(path, why string) { warned = append(warned, why) }
	defer func() { cacheWarn = saved }()

	d := filepath.Join(t.TempDir(), "arepl")
	cacheStore(d, "good", []byte("real cubin"))
	if _, ok := cacheLoad(d, "good"); !ok {
		t.Fatal("no hit for a stored cubin")
	}
	// Planted: bare content, another key's file renamed, a truncated file.
	os.WriteFile(filepath.Join(d, "bare.cubin"), []byte("evil"), 0o600)
	b, _ := os.ReadFile(filepath.Join(d, "good.cubin"))
	os.WriteFile(filepath.Join(d, "renamed.cubin"), b, 0o600)
	os.WriteFile(filepath.Join(d, "cut.cubin"), b[:len(b)-1], 0o600)
	for _, k := range []string{"bare", "renamed", "cut"} {
		if got, ok := cacheLoad(d, k); ok {
			t.Errorf("%s: loaded %q", k, got)
		}
	}
	// A file others may write.
	os.WriteFile(filepath.Join(d, "loose.cubin"), b, 0o666)
	os.Chmod(filepath.Join(d, "loose.cubin"), 0o666)
	if _, ok := cacheLoad(d, "loose"); ok {
		t.Error("loaded a world-writable cubin")
	}
	// A world-writable directory (the old shared /tmp/arepl-cache).
	if err := os.Chmod(d, 0o777); err != nil {
		t.Fatal(err)
	}
	if _, ok := cacheLoad(d, "good"); ok {
		t.Error("loaded from a world-writable directory")
	}
	cacheStore(d, "other", []byte("x"))
	if _, err := os.Stat(filepath.Join(d, "other.cubin")); err == nil {
		t.Error("stored into a world-writable directory")
	}
	// Our own directory, readable by others (as arepl made it before):
	// tightened and used.
	os.Chmod(d, 0o755)
	if _, ok := cacheLoad(d, "good"); !ok {
		t.Error("no hit in our own 0755 directory")
	}
	if fi, _ := os.Stat(d); fi.Mode().Perm() != 0o700 {
		t.Errorf("our directory left at %v", fi.Mode().Perm())
	}
	// Another user's directory.
	fi, _ := os.Lstat(d)
	if err := cacheUsable(d, fi, os.Getuid()+1, true); err == nil || !strings.Contains(err.Error(), "owned by uid") {
		t.Errorf("another user's directory: %v", err)
	}
	// A symbolic link in place of a file.
	os.Symlink(filepath.Join(d, "good.cubin"), filepath.Join(d, "link.cubin"))
	if _, ok := cacheLoad(d, "link"); ok {
		t.Error("followed a symbolic link")
	}
	if len(warned) == 0 {
		t.Error("nothing said about the refused directory and files")
	}
}
