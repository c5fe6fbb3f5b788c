// Package quantile estimates one quantile of a stream in constant memory:
// Jain and Chlamtac's P² algorithm ("The P² algorithm for dynamic
// calculation of quantiles and histograms without storing observations",
// CACM 28(10), 1985). Five markers track the minimum, the quantile, the
// maximum and the two halfway points; each observation moves them by a
// piecewise-parabolic step, so no sample is kept.
//
// An [Estimator] is a plain value with exported fields, so that its owner
// can save it (as JSON, say) and restore it exactly. It is not safe for
// concurrent use.
package quantile
