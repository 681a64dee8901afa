package blocklog

// Subscribers are those told of every change of the blocks: blocks added
// (from is the first new one), replaced by a fork (from is the first
// replaced), or the last irreversible block moved (from is 0). The zero
// Subscribers has none. It is not safe for concurrent use: the chain
// guards it with its lock, and calls Notify with it held.
type Subscribers struct {
	subs map[int]func(from uint32)
	next int
}

// Add adds changed, returning the key that removes it.
func (s *Subscribers) Add(changed func(from uint32)) (key int) {
	if s.subs == nil {
		s.subs = map[int]func(uint32){}
	}
	key = s.next
	s.next++
	s.subs[key] = changed
	return key
}

// Remove removes the subscriber Add returned key for.
func (s *Subscribers) Remove(key int) { delete(s.subs, key) }

// Notify tells every subscriber of a change from block from.
func (s *Subscribers) Notify(from uint32) {
	for _, f := range s.subs {
		f(from)
	}
}
