// GoLightly: the sub-pixel inverse-permittivity tensor K of a scene's E sites (scene.hpp
// "Anisotropic cells") as the adjoint gradients read it, shared by the shape parameters
// (adjoint_shape.cpp) and the density regions (adjoint.cpp).
//
// At tensor-coupled sites the engines step E^{n+1} - E^n = K (S curl H~ + J'), K symmetric
// with the diagonal 1 / eps_r (the table's entry) and the off-diagonal K(p, q) between
// neighbouring sites of other components (stored as weight = K(p, q) eps_r(q)). In
// frequency form the operator is (1 - exp(i w dt)) K^-1 plus the curl-curl, so a change dK
// changes it by -(1 - exp(i w dt)) K^-1 dK K^-1, and with the displacement D~ = K^-1 E (in
// units of E) of the forward field and of the adjoint field lambda
//   dF = sum_f Re((1 - exp(i w_f dt)) D~_adj^T dK D~_fwd)
// (docs/inverse-design.md sections 6 and 8). K^-1 couples every site of a connected
// cluster of couplings, so D~ needs E over the whole cluster (tensor_cluster).
#pragma once

#include <complex>
#include <cstddef>
#include <map>
#include <utility>
#include <vector>

#include "golightly/scene.hpp"

namespace golightly::adjoint {

/// One entry of an inverse-permittivity tensor K or of its derivative between two sites
/// (indices a, b into the caller's site list; a == b: the diagonal 1 / eps_r).
struct TensorEntry {
    std::size_t a = 0, b = 0;
    double value = 0;
};

/// An E site: (component index 0 .. 2, flat cell index).
using SiteKey = std::pair<int, CellIndex>;

/// Whether E site (c, cell) is listed in scene.anisotropic (has or had couplings).
bool tensor_listed(const Scene& scene, int c, CellIndex cell);

/// Every off-diagonal entry K(p, q) of the scene (both orders): the stored weight divided
/// by the table eps_r of q. Entries whose slot is -1 are absent.
std::map<std::pair<SiteKey, SiteKey>, double> tensor_couplings(const Scene& scene);

/// The sites reachable from `seeds` through the scene's couplings (seeds without a
/// coupling are left out) and K over them: sites[i] and, in `k`, the diagonal (i, i,
/// 1 / eps_r) of each and every off-diagonal (i, j, K(i, j)) in both orders. Closed under
/// the couplings, so K^-1 E over the cluster is exact.
struct TensorCluster {
    std::vector<SiteKey> sites;
    std::vector<TensorEntry> k;
};
TensorCluster tensor_cluster(const Scene& scene, const std::vector<SiteKey>& seeds);

/// D = K^-1 E for several complex fields: K the n x n symmetric positive definite matrix
/// whose entries `k` lists (indices < n; off-diagonals in both orders), e[v] holding
/// n * nf values [i * nf + f] (frequency f of site i). Returns the solutions in the same
/// layout (sparse LDL^T, Eigen::SimplicialLDLT, real and imaginary parts of every field
/// and frequency as right-hand sides). Throws std::runtime_error when the factorization
/// fails (K not positive definite), std::invalid_argument for a field of the wrong size.
std::vector<std::vector<std::complex<double>>> solve_tensor(const std::vector<TensorEntry>& k, std::size_t n,
                                                            std::size_t nf,
                                                            const std::vector<std::vector<std::complex<double>>>& e);

}  // namespace golightly::adjoint
