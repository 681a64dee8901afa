package fork

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/internal/atomicfile"
)

// The fork cache: a directory holding fork.json (the chain, source kind
// and fork block it is of) and one file per answer, each stamped with
// the same, so that a run replays it without the network and a cache of
// another chain, source or block is refused rather than mixed in.

const forkManifest = "fork.json"

// cacheStamp is what every cached answer is of.
type cacheStamp struct {
	Source  string               `json:"source"` // "nodeos" or "state"
	ChainID antelope.Checksum256 `json:"chain_id"`
	Block   uint32               `json:"block"`
}

type cacheEntry struct {
	cacheStamp
	// Name is what the answer answers (its path in the cache without
	// .json), so that a file copied or renamed is refused.
	Name   string          `json:"name"`
	Answer json.RawMessage `json:"answer"`
}

// Cache answers from dir, and asks live (nil: offline) what dir
// lacks, recording it.
type Cache struct {
	dir    string
	live   *Live // nil: offline
	kindOf string
	stamp  cacheStamp
	hits   atomic.Int64
	noLive string // why live is nil: the fork is offline unless said here
}

// OpenCache opens (making it if absent) the cache at dir for a fork of
// kind ("": the cache's) at block (0: whatever block the cache or the node
// says) and returns the source and the fork point.
func OpenCache(ctx context.Context, dir, kind string, block uint32, live *Live) (*Cache, Point, error) {
	s := &Cache{dir: dir, live: live, kindOf: kind}
	var m struct {
		cacheStamp
		Point Point `json:"point"`
	}
	data, err := os.ReadFile(filepath.Join(dir, forkManifest))
	switch {
	case err == nil:
		if err := json.Unmarshal(data, &m); err != nil {
			return nil, Point{}, fmt.Errorf("fork cache %s: %s: %v", dir, forkManifest, err)
		}
		if kind == "" {
			kind, s.kindOf = m.Source, m.Source // offline with no URL: the cache says
		}
		if m.Source != kind {
			return nil, Point{}, fmt.Errorf("fork cache %s is of a %s fork, not of a %s one: use another directory", dir, m.Source, kind)
		}
		if block != 0 && m.Block != block {
			return nil, Point{}, fmt.Errorf("fork cache %s is of block %d, not of block %d: use another directory", dir, m.Block, block)
		}
		s.stamp = m.cacheStamp
		if live != nil {
			// The live chain must be the cache's: another chain's answers
			// must not be mixed in. A state service answers at the cache's
			// block; nodeos only at its head, so once the head has moved
			// on, what the cache lacks cannot be read at its block.
			if kind == "state" {
				live.block = m.Block
			}
			p, err := live.Point(ctx)
			if err != nil {
				return nil, Point{}, err
			}
			if p.ChainID != m.ChainID {
				return nil, Point{}, fmt.Errorf("fork cache %s is of chain %s, not of the node's chain %s: use another directory", dir, m.ChainID, p.ChainID)
			}
			if p.Block != m.Block {
				s.live, s.noLive = nil, fmt.Sprintf("the node's head has moved from the cache's block %d to %d, where nodeos answers", m.Block, p.Block)
			}
		}
		return s, m.Point, nil
	case !errors.Is(err, os.ErrNotExist):
		return nil, Point{}, fmt.Errorf("fork cache: %v", err)
	case live == nil:
		return nil, Point{}, fmt.Errorf("fork cache %s has no %s: an offline fork needs a cache a run with the network made", dir, forkManifest)
	}
	p, err := live.Point(ctx)
	if err != nil {
		return nil, Point{}, err
	}
	m.cacheStamp = cacheStamp{Source: kind, ChainID: p.ChainID, Block: p.Block}
	m.Point = p
	s.stamp = m.cacheStamp
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, Point{}, fmt.Errorf("fork cache: %v", err)
	}
	out, _ := json.MarshalIndent(m, "", "  ")
	if err := atomicfile.Write(filepath.Join(dir, forkManifest), append(out, '\n'), 0o644); err != nil {
		return nil, Point{}, fmt.Errorf("fork cache: %v", err)
	}
	return s, p, nil
}

// Kind names the source for a cache: "nodeos" or "state".
func (s *Cache) Kind() string { return s.kindOf }

// Hits counts the answers replayed from the cache.
func (s *Cache) Hits() int64 { return s.hits.Load() }

// answer reads the answer recorded under name into out, or asks fetch and
// records it.
func (s *Cache) answer(name string, out any, fetch func() (any, error)) error {
	path := filepath.Join(s.dir, name+".json")
	data, err := os.ReadFile(path)
	if err == nil {
		var e cacheEntry
		if err := json.Unmarshal(data, &e); err != nil {
			return fmt.Errorf("fork cache %s: %v", path, err)
		}
		if e.cacheStamp != s.stamp {
			return fmt.Errorf("fork cache %s is of %s block %d of chain %s, not of the cache's %s block %d: refused, not mixed",
				path, e.Source, e.Block, e.ChainID, s.stamp.Source, s.stamp.Block)
		}
		if e.Name != name {
			return fmt.Errorf("fork cache %s holds the answer of %q, not the answer of %q: refused, not mixed", path, e.Name, name)
		}
		s.hits.Add(1)
		return json.Unmarshal(e.Answer, out)
	}
	if !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("fork cache: %v", err)
	}
	if s.live == nil {
		why := "the fork is offline"
		if s.noLive != "" {
			why = s.noLive
		}
		return fmt.Errorf("fork cache %s has no answer %s, and it cannot be read at block %d: %s", s.dir, name, s.stamp.Block, why)
	}
	v, err := fetch()
	if err != nil {
		return err
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return err
	}
	entry, _ := json.MarshalIndent(cacheEntry{cacheStamp: s.stamp, Name: name, Answer: raw}, "", " ")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("fork cache: %v", err)
	}
	if err := atomicfile.Write(path, append(entry, '\n'), 0o644); err != nil {
		return fmt.Errorf("fork cache: %v", err)
	}
	return json.Unmarshal(raw, out)
}

// Account is Source.Account, from the cache or recorded there.
func (s *Cache) Account(ctx context.Context, n antelope.Name) (json.RawMessage, error) {
	var out json.RawMessage
	err := s.answer("account/"+n.String(), &out, func() (any, error) { return s.live.Account(ctx, n) })
	if string(out) == "null" {
		out = nil
	}
	return out, err
}

// Code is Source.Code, from the cache or recorded there.
func (s *Cache) Code(ctx context.Context, n antelope.Name) (*Code, error) {
	var out Code
	err := s.answer("code/"+n.String(), &out, func() (any, error) { return s.live.Code(ctx, n) })
	return &out, err
}

// Table is Source.Table, from the cache or recorded there; a nodeos
// fork's cached table must hold the order by every index asked for.
func (s *Cache) Table(ctx context.Context, code, scope, table antelope.Name, readers map[int]KeyReader) (*Table, error) {
	var positions []string
	for pos, kr := range readers {
		positions = append(positions, strconv.Itoa(pos)+string(kr.typ))
	}
	name := "table/" + code.String() + "/" + scopeFile(scope) + "/" + table.String()
	var out Table
	err := s.answer(name, &out, func() (any, error) { return s.live.Table(ctx, code, scope, table, readers) })
	if err == nil && s.kindOf == "nodeos" {
		for pos := range readers {
			if _, ok := out.Order[pos]; !ok {
				return nil, fmt.Errorf("fork cache %s: %s lacks the order by index %d (%s)", s.dir, name, pos, strings.Join(positions, ","))
			}
		}
	}
	return &out, err
}

// scopeFile is a scope as a file name: its name, or its number for scope
// 0 (whose name is empty).
func scopeFile(scope antelope.Name) string {
	s := scope.String()
	if s == "" {
		return strconv.FormatUint(uint64(scope), 10)
	}
	return s
}
