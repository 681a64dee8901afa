// Package faults is chaintest's fault injector: what a real network, proxy
// or hostile node does to HTTP requests (failures, rate limits, lost and
// truncated answers, oversized bodies, delays, and the Misbehaviors of a
// load balancer over lagging nodes or a cache that ignores the POST body).
//
// It is the outermost layer of chaintest's HTTP side: the chain's handler
// calls Injector.Before before it routes a request and Injector.After to
// write the answer, and the get_table_rows and get_table_by_scope handlers
// ask TableRange, TablePage and ScopeMore to bend their pages. It knows
// nothing of the chain: the few nodeos error answers it gives are made by
// the chain (Answers). Package chaintest re-exports Misbehavior and its
// constants, and its Chain methods (FailNext, Misbehave…) set an Injector.
package faults
