// The sub-pixel inverse-permittivity tensor as the adjoint gradients read it
// (adjoint_tensor.hpp).
#include "golightly/adjoint_tensor.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include <Eigen/Sparse>

namespace golightly::adjoint {

bool tensor_listed(const Scene& s, int c, CellIndex cell) {
    const auto& l = s.anisotropic.cells[c];
    return std::binary_search(l.begin(), l.end(), cell);
}

namespace {

/// K(p, q) for each coupling slot of listed site k of component c: (neighbour key, value).
template <class Fn>
void for_each_coupling(const Scene& s, int c, std::size_t k, Fn&& fn) {
    const int dims = s.dimensions == 3 ? 3 : 2;
    const std::size_t S = std::size_t(anisotropic_slots(dims));
    const AnisotropicCells& an = s.anisotropic;
    for (std::size_t slot = 0; slot < S; ++slot) {
        const std::int32_t nb = an.neighbour[c][S * k + slot];
        if (nb < 0) continue;
        const int c2 = anisotropic_partner(c, int(slot / 4), dims);
        const CellIndex cell2 = an.cells[c2][std::size_t(nb)];
        const double w = an.weight[c][S * k + slot];
        fn(SiteKey{c2, cell2}, w / s.table[s.material_index[c2][std::size_t(cell2)]].eps_r);
    }
}

}  // namespace

std::map<std::pair<SiteKey, SiteKey>, double> tensor_couplings(const Scene& s) {
    std::map<std::pair<SiteKey, SiteKey>, double> out;
    for (int c = 0; c < 3; ++c)
        for (std::size_t k = 0; k < s.anisotropic.cells[c].size(); ++k) {
            const SiteKey p{c, s.anisotropic.cells[c][k]};
            for_each_coupling(s, c, k, [&](const SiteKey& q, double v) { out[{p, q}] = v; });
        }
    return out;
}

TensorCluster tensor_cluster(const Scene& s, const std::vector<SiteKey>& seeds) {
    TensorCluster out;
    std::map<SiteKey, std::size_t> index;
    std::vector<std::vector<std::pair<SiteKey, double>>> rows;
    auto visit = [&](const SiteKey& key) {
        if (index.count(key)) return;
        const auto& l = s.anisotropic.cells[key.first];
        const auto it = std::lower_bound(l.begin(), l.end(), key.second);
        if (it == l.end() || *it != key.second) return;
        std::vector<std::pair<SiteKey, double>> row;
        for_each_coupling(s, key.first, std::size_t(it - l.begin()),
                          [&](const SiteKey& q, double v) { row.emplace_back(q, v); });
        if (row.empty()) return;  // listed, but every coupling removed: a diagonal site
        index.emplace(key, out.sites.size());
        out.sites.push_back(key);
        rows.push_back(std::move(row));
    };
    for (const SiteKey& key : seeds) visit(key);
    for (std::size_t r = 0; r < rows.size(); ++r)
        for (const auto& [q, v] : rows[r]) visit(q);
    for (std::size_t a = 0; a < out.sites.size(); ++a) {
        const SiteKey& key = out.sites[a];
        out.k.push_back({a, a, 1.0 / s.table[s.material_index[key.first][std::size_t(key.second)]].eps_r});
        for (const auto& [q, v] : rows[a]) out.k.push_back({a, index.at(q), v});
    }
    return out;
}

std::vector<std::vector<std::complex<double>>> solve_tensor(const std::vector<TensorEntry>& k, std::size_t n,
                                                            std::size_t nf,
                                                            const std::vector<std::vector<std::complex<double>>>& e) {
    for (const auto& v : e)
        if (v.size() != n * nf)
            throw std::invalid_argument("solve_tensor: a field holds " + std::to_string(v.size()) + " values for " +
                                        std::to_string(n) + " sites x " + std::to_string(nf) + " frequencies");
    std::vector<Eigen::Triplet<double>> trip;
    trip.reserve(k.size());
    for (const TensorEntry& t : k) {
        if (t.a >= n || t.b >= n) throw std::invalid_argument("solve_tensor: an entry's index lies beyond the sites");
        trip.emplace_back(Eigen::Index(t.a), Eigen::Index(t.b), t.value);
    }
    const Eigen::Index dim = Eigen::Index(n);
    Eigen::SparseMatrix<double> K(dim, dim);
    K.setFromTriplets(trip.begin(), trip.end());
    Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>> ldlt(K);
    if (ldlt.info() != Eigen::Success)
        throw std::runtime_error("adjoint: the inverse-permittivity tensor of the coupled sites is singular");
    if ((ldlt.vectorD().array() <= 0.0).any())
        throw std::runtime_error("adjoint: the inverse-permittivity tensor of the coupled sites is not positive definite");
    const Eigen::Index cols = Eigen::Index(2 * nf * e.size());
    Eigen::MatrixXd rhs(dim, cols);
    for (std::size_t v = 0; v < e.size(); ++v)
        for (std::size_t f = 0; f < nf; ++f)
            for (std::size_t i = 0; i < n; ++i) {
                const std::complex<double> x = e[v][i * nf + f];
                rhs(Eigen::Index(i), Eigen::Index(2 * (v * nf + f))) = x.real();
                rhs(Eigen::Index(i), Eigen::Index(2 * (v * nf + f) + 1)) = x.imag();
            }
    const Eigen::MatrixXd x = ldlt.solve(rhs);
    std::vector<std::vector<std::complex<double>>> out(e.size(), std::vector<std::complex<double>>(n * nf));
    for (std::size_t v = 0; v < e.size(); ++v)
        for (std::size_t f = 0; f < nf; ++f)
            for (std::size_t i = 0; i < n; ++i)
                out[v][i * nf + f] = {x(Eigen::Index(i), Eigen::Index(2 * (v * nf + f))),
                                      x(Eigen::Index(i), Eigen::Index(2 * (v * nf + f) + 1))};
    return out;
}

}  // namespace golightly::adjoint
