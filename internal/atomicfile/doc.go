// Package atomicfile writes a file so that a reader sees either its old
// content or its new content, never a part: the data goes into a temporary
// file beside it, which is renamed over it. The generator's output, the
// state-API token cache, chaintest's fork cache and cmd/chaintest's key file
// all write this way.
package atomicfile
