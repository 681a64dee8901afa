package fetch

import "time"

// TokenCacheBeatingOn is a TokenCache in dir whose lock holders refresh
// their lock at each tick of beats rather than every heartbeat, so that a
// test decides when they beat; nil: they never beat, as a dead holder.
func TokenCacheBeatingOn(dir string, beats <-chan time.Time) *TokenCache {
	if beats == nil {
		beats = make(chan time.Time)
	}
	return &TokenCache{Dir: dir, beats: beats}
}

// TokenCacheBreaking is a TokenCache in dir that calls breaking when it
// has found a lock stale, before it breaks it: a test runs another
// process's Lock there.
func TokenCacheBreaking(dir string, breaking func()) *TokenCache {
	return &TokenCache{Dir: dir, breaking: breaking}
}

// TokenCacheClocked is a TokenCache in dir that reads the time from now.
func TokenCacheClocked(dir string, now func() time.Time) *TokenCache {
	return &TokenCache{Dir: dir, now: now}
}

// TokenCacheReleasing is a TokenCache in dir that calls releasing when a
// holder letting its lock go has found it still its own, before removing
// it.
func TokenCacheReleasing(dir string, releasing func()) *TokenCache {
	return &TokenCache{Dir: dir, releasing: releasing}
}

// TokenCacheReadOnly is a TokenCache in dir as if dir had been made
// read-only since its token was written: nothing can be written, removed
// or locked there (tests run as root, whom a mode does not stop).
func TokenCacheReadOnly(dir string) *TokenCache {
	return &TokenCache{Dir: dir, readOnly: true}
}
