package fetch

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// Source is where an ABI comes from. Fetch returns the bytes model.Load
// reads, and the provenance to record.
type Source interface {
	Fetch(ctx context.Context) (*Fetched, error)
}

// StateSource is an account's ABI from the state API, at BlockNum (0: head).
type StateSource struct {
	API      *StateAPI // the state service
	Account  string    // the contract account
	BlockNum uint64    // the block; 0: the head
	Packed   bool      // json=false: the packed bytes as hex
}

// Fetch implements Source.
func (s StateSource) Fetch(ctx context.Context) (*Fetched, error) {
	return s.API.FetchABI(ctx, s.Account, s.BlockNum, s.Packed)
}

// ChainSource is an account's current ABI from a nodeos chain API.
type ChainSource struct {
	API     *ChainAPI // the node
	Account string    // the contract account
	Packed  bool      // get_raw_abi instead of get_abi
}

// Fetch implements Source.
func (s ChainSource) Fetch(ctx context.Context) (*Fetched, error) {
	return s.API.FetchABI(ctx, s.Account, s.Packed)
}

// FileSource is an ABI in a file, in any form model.Load reads; Path "-"
// reads Stdin.
type FileSource struct {
	Path  string    // the file, or "-"
	Stdin io.Reader // read when Path is "-"; nil: os.Stdin
}

// maxFile caps what a FileSource reads: no ABI is that large.
const maxFile = 64 << 20

// Fetch implements Source. The provenance is the path as given.
func (s FileSource) Fetch(ctx context.Context) (*Fetched, error) {
	r, name := s.Stdin, "(stdin)"
	if r == nil {
		r = os.Stdin
	}
	if s.Path != "-" {
		f, err := os.Open(s.Path)
		if err != nil {
			return nil, fmt.Errorf("reading the ABI: %w", err)
		}
		defer f.Close()
		r, name = f, filepath.ToSlash(s.Path)
	}
	data, err := io.ReadAll(io.LimitReader(r, maxFile+1))
	if err != nil {
		return nil, fmt.Errorf("reading the ABI: %w", err)
	}
	if len(data) > maxFile {
		return nil, fmt.Errorf("%s is larger than %d MiB; that is not an ABI", name, maxFile>>20)
	}
	return &Fetched{Body: data, Source: name}, nil
}
