package atomicfile

import (
	"errors"
	"os"
	"path/filepath"
)

// Write writes data to path with the permission bits perm, through a
// temporary file in path's directory renamed over path. The mode is set on
// the new file, so an existing file's mode is not kept (os.WriteFile keeps
// it: a world-readable file of private keys would stay world-readable). On
// an error the temporary file is removed and path is untouched.
func Write(path string, data []byte, perm os.FileMode) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	_, werr := tmp.Write(data)
	cerr := tmp.Close()
	err = errors.Join(werr, cerr, os.Chmod(tmp.Name(), perm))
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	return err
}
