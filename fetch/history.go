package fetch

import (
	"context"
	"errors"
	"fmt"
)

// Version is one version of an account's ABI: the block it was set in, as
// the state service says, and the response holding it.
type Version struct {
	// Block is the block the version was set in (the state service's
	// block_num for it).
	Block uint64
	// Fetched is the state service's response with the ABI itself.
	Fetched *Fetched
}

// History returns the versions of account's ABI in force between blocks
// from and upTo (0: the head), newest first, at most max of them (0: every
// one): those set at or before upTo, back to the one in force at from
// (from 0: back to the first version). The
// state service answers an ABI query at block b with the version in force
// there and the block it was set in; asking again just before that block
// gives the version before it. Its requests share one token (without a
// Cache too).
func (s *StateAPI) History(ctx context.Context, account string, from, upTo uint64, max int) ([]Version, error) {
	if from > 0 && upTo > 0 && from > upTo {
		return nil, fmt.Errorf("the ABI history of %s from block %d to block %d: the range is backwards", account, from, upTo)
	}
	var out []Version
	auth := s.newAuth()
	b := upTo
	for max == 0 || len(out) < max {
		f, err := s.fetchABI(ctx, auth, account, b, false)
		if errors.Is(err, ErrNotFound) && len(out) > 0 {
			break // before the first version
		}
		if err != nil {
			return out, err
		}
		if f.BlockNum == 0 {
			return out, fmt.Errorf("state service: the ABI of %s has no block_num", account)
		}
		if len(out) > 0 && f.BlockNum >= out[len(out)-1].Block {
			return out, fmt.Errorf("state service: asked for the ABI of %s before block %d, got the one set at %d", account, out[len(out)-1].Block, f.BlockNum)
		}
		out = append(out, Version{Block: f.BlockNum, Fetched: f})
		if f.BlockNum <= 1 || f.BlockNum <= from {
			break // the first version, or the one in force at from
		}
		b = f.BlockNum - 1
	}
	return out, nil
}
