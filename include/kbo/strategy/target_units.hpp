#pragma once
// Between the observed values y (to maximise) and the targets z the GP fits (z = T(y): the robust scaling,
// an output warp, the standardisation; bo_targets.cpp). T is monotone increasing and is computed from the
// data themselves, so it is known only at the observations: here it is the piecewise-linear interpolant of
// the observed pairs (y_i, z_i), extended past the extremes by the slope of the outermost segment. Exact
// for an affine T (the standardisations); for a non-affine warp it is T's average slope over the interval
// considered, which for a rank warp counts the observations inside that interval.
#include "kbo/core/linalg.hpp"

namespace kbo {

/// The standard errors `sem` of the observations y in target units: half the width of the image of
/// [y_i − s_i, y_i + s_i] under T (s_i·|slope| for an affine T). With fewer than two distinct values T has
/// no slope: the standard errors are returned unchanged.
Vec sem_in_target_units(const Vec& y, const Vec& z, const Vec& sem);

/// A posterior of the latent target (mean, sd per entry, in z's units) in y's units: the mean through T⁻¹,
/// the sd as half the width of the image of [mean − sd, mean + sd] under T⁻¹. With fewer than two distinct
/// values: unchanged.
void targets_to_values(const Vec& y, const Vec& z, const Vec& mean_z, const Vec& sd_z, Vec& mean_y, Vec& sd_y);

}  // namespace kbo
