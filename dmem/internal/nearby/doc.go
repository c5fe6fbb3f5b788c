// Package nearby finds the stored vectors near a new one without a full
// scan, at a cost bounded whatever the number stored: random-hyperplane
// (SimHash) signatures in several tables, a few of the newest in each
// bucket compared. It is approximate, and serves what a memory asks of
// each save: how new a step is, and which stored units it may repeat. It
// never serves retrieval.
package nearby
