package atomicfile

import (
	"fmt"
	"os"
	"path/filepath"
)

// ReplaceDir writes the directory dir as a whole: fill writes the new
// content into a fresh temporary directory beside dir (same parent, so
// that the renames stay on one file system), and only when fill succeeds
// does that directory take dir's place. An existing dir is first renamed
// aside, the new directory renamed to dir, and only then the old one
// removed; if the second rename fails the old one is renamed back. If fill
// or any step before the final rename fails, the temporary directory is
// removed and dir is left as it was, so readers find either the old
// directory or the complete new one.
//
// Between the two renames dir is briefly absent; a crash there leaves the
// old content in a directory named .<dir>.old-* beside it (a signal
// handler's Cleanup renames it back). An existing dir
// that is not a directory is refused. Missing parents are created.
func ReplaceDir(dir string, fill func(tmp string) error) error {
	dir = filepath.Clean(dir)
	parent, base := filepath.Split(dir)
	if parent == "" {
		parent = "."
	}
	fi, err := os.Lstat(dir)
	exists := err == nil
	switch {
	case exists && !fi.IsDir():
		return fmt.Errorf("cannot write %s: exists and is not a directory", dir)
	case err != nil && !os.IsNotExist(err):
		return fmt.Errorf("cannot write %s: %w", dir, osCause(err))
	}
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return fmt.Errorf("cannot write %s: %w", dir, osCause(err))
	}
	tmp, key, err := beginTemp(func() (string, error) { return os.MkdirTemp(parent, "."+base+".tmp-*") })
	if err != nil {
		return fmt.Errorf("cannot write %s: %w", dir, osCause(err))
	}
	defer end(key)
	committed := false
	defer func() {
		if !committed {
			// Best effort: the temporary directory is ours alone.
			_ = os.RemoveAll(tmp)
		}
	}()
	if err := os.Chmod(tmp, 0o755); err != nil {
		return fmt.Errorf("cannot write %s: %w", dir, osCause(err))
	}
	if err := fill(tmp); err != nil {
		return inDir(err, tmp, dir)
	}
	syncDir(tmp)
	if !exists {
		if err := update(key, func() error { return os.Rename(tmp, dir) }, func() {}); err != nil {
			return fmt.Errorf("cannot write %s: %w", dir, osCause(err))
		}
		committed = true
		syncDir(parent)
		return nil
	}
	// MkdirTemp reserves a unique name and the rename needs it free: both
	// run under the registry's lock, so a Cleanup never finds the empty
	// reservation in place (nil: the undo step stays removing tmp).
	var old string
	reserve := func() error {
		var err error
		if old, err = os.MkdirTemp(parent, "."+base+".old-*"); err != nil {
			return err
		}
		return os.Remove(old)
	}
	if err := update(key, reserve, nil); err != nil {
		return fmt.Errorf("cannot write %s: %w", dir, osCause(err))
	}
	// Between the two renames, Cleanup puts the old directory back.
	aside := func() error { return os.Rename(dir, old) }
	if err := update(key, aside, func() { removeQuietly(tmp); _ = os.Rename(old, dir) }); err != nil {
		return fmt.Errorf("cannot write %s: moving the old directory aside: %w", dir, osCause(err))
	}
	if err := update(key, func() error { return os.Rename(tmp, dir) }, func() { removeQuietly(old) }); err != nil {
		if back := os.Rename(old, dir); back != nil {
			return fmt.Errorf("cannot write %s: %w (the old directory is kept as %s: %v)", dir, osCause(err), old, back)
		}
		return fmt.Errorf("cannot write %s: %w", dir, osCause(err))
	}
	committed = true
	syncDir(parent)
	if err := os.RemoveAll(old); err != nil {
		return fmt.Errorf("cannot write %s: the new directory is in place, but removing the old one (%s) failed: %w", dir, old, err)
	}
	return nil
}
