package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/ship"
)

// state is the file: what was credited, and where the stream stands. The
// two are one write, so they never disagree.
type state struct {
	Account  antelope.Name             `json:"account"`
	Token    antelope.Name             `json:"token"`
	Balances map[string]antelope.Asset `json:"balances"` // by symbol
	// Pending are the credits of reversible blocks, by block number, so
	// that a fork can take them back.
	Pending map[uint32][]antelope.Asset `json:"pending,omitempty"`
	Cursor  ship.Cursor                 `json:"cursor"`
}

func load(path string, account, token antelope.Name) (*state, error) {
	st := &state{Account: account, Token: token, Balances: map[string]antelope.Asset{}, Pending: map[uint32][]antelope.Asset{}}
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return st, nil
	}
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(data, st); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if st.Account != account || st.Token != token {
		return nil, fmt.Errorf("%s credits %s on %s, not %s on %s: use another --state file", path, st.Account, st.Token, account, token)
	}
	if st.Balances == nil {
		st.Balances = map[string]antelope.Asset{}
	}
	if st.Pending == nil {
		st.Pending = map[uint32][]antelope.Asset{}
	}
	return st, nil
}

// credit adds a block's credits, and forgets the undo records of blocks
// that became irreversible.
func (s *state) credit(block, lastIrreversible uint32, credits []antelope.Asset) bool {
	for _, q := range credits {
		s.add(q, 1)
	}
	if len(credits) > 0 {
		s.Pending[block] = credits
	}
	// Safe to forget: a stream never undoes a block at or below a last
	// irreversible block it reported, in this run or (the cursor holds
	// it) a later one; it ends with ship.ErrForkBelowReversible instead.
	for n := range s.Pending {
		if n <= lastIrreversible {
			delete(s.Pending, n)
		}
	}
	return len(credits) > 0
}

// undo takes back what a block replaced by a fork credited.
func (s *state) undo(block uint32) bool {
	credits, ok := s.Pending[block]
	for _, q := range credits {
		s.add(q, -1)
	}
	delete(s.Pending, block)
	return ok
}

func (s *state) add(q antelope.Asset, sign int64) {
	key := q.Symbol.String()
	b, ok := s.Balances[key]
	if !ok {
		b = antelope.Asset{Symbol: q.Symbol}
	}
	b.Amount += sign * q.Amount
	s.Balances[key] = b
}

func (s *state) sortedBalances() []string {
	var out []string
	for _, b := range s.Balances {
		out = append(out, b.String())
	}
	sort.Strings(out)
	return out
}

// save writes the file atomically: a temporary file in the same directory,
// synced, then renamed over the old one. A crash leaves the old file or the
// new one, never half of one.
func (s *state) save(path string) error {
	data, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(append(data, '\n')); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	crash.reached("saving")
	if err := os.Rename(tmp.Name(), path); err != nil {
		return err
	}
	if d, err := os.Open(filepath.Dir(path)); err == nil {
		d.Sync()
		d.Close()
	}
	return nil
}
