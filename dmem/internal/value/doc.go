// Package value is D-MEM's small online value model: V(s) = w·φ(s) over a
// step's features φ(s) (its role, kind, flags, length, novelty and its
// embedding folded into a few dimensions), learned by TD(0) against a
// target network w̄ that trails w by Polyak averaging, so that a bootstrap
// target does not chase its own updates. The memory reads a step's reward
// prediction error δ = r + γV̄(s′) − V(s) from it.
//
// A [Model] is a plain value with exported fields, so that its owner can
// save it (as JSON, say) and restore it exactly. It is not safe for
// concurrent use.
package value
