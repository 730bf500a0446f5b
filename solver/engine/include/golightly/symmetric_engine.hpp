// An engine for a whole-domain scene with mirror symmetry planes (symmetry.hpp): it steps
// the reduced scene on any backend (the inner engine, made by the caller) and answers every
// read of the Engine interface for the whole domain.
//
// What is exact and what is not:
//   dft(), time_samples()   exact whole-domain samples, in the scene's order: the reduced
//                           scene's probes are remapped node by node and its DFT sets hold
//                           each pair of mirror-image samples once (reduce_by_symmetry);
//                           dft() expands them (ReducedMonitors::dft_samples);
//   get_field()             exact: every whole-domain node from its reduced node times the
//                           parity (MirrorMap::map);
//   sample_field(), frame() the whole slice assembled from the inner engine's boxes by
//                           mirroring (nearest box; the factor of the whole slice);
//   field_energy()          the reduced domain's energy times the whole-to-reduced cell
//                           ratio (2, 4, 8): exact, since every whole-domain node is one
//                           reduced node or its image, but for the nodes on the planes,
//                           which hold zero (and the half-cell asymmetry of the whole
//                           grid's outer PML wall).
// Live edits reduce the edited whole-domain scene the same way. The engine keeps `full`
// (the caller's scene) as its whole-domain view.
#pragma once

#include <memory>
#include <vector>

#include "golightly/engine.hpp"
#include "golightly/symmetry.hpp"

namespace golightly {

class SymmetricEngine final : public Engine, public FrameSource {
public:
    /// `reduced` is reduce_by_symmetry(*full, map, &monitors); `inner` an engine made from
    /// it. Throws std::invalid_argument when the sizes disagree.
    SymmetricEngine(SceneView full, MirrorMap map, std::shared_ptr<const Scene> reduced, ReducedMonitors monitors,
                    std::unique_ptr<Engine> inner);

    std::string backend() const override { return inner_->backend(); }
    std::string device() const override { return inner_->device(); }
    std::string kernel() const override { return inner_->kernel(); }
    Precision precision() const override { return inner_->precision(); }
    void step(int n_steps) override { inner_->step(n_steps); }
    std::int64_t steps_done() const override { return inner_->steps_done(); }
    void synchronize() override { inner_->synchronize(); }
    double bytes_per_cell_update() const override { return inner_->bytes_per_cell_update(); }
    double field_energy() override { return inner_->field_energy() * map_.cell_ratio(); }
    bool fields_finite() override { return inner_->fields_finite(); }
    /// Whole domain: n_full cells, flat index (k * ny + j) * nx + i of the whole grid.
    void get_field(Component c, std::vector<double>& out) override;
    /// Takes the reduced part of whole-domain values (the rest follows by symmetry).
    void set_field(Component c, const std::vector<double>& values) override;
    /// The whole-domain samples x frequencies of scene.dft_sets[set] (engine.hpp).
    std::vector<std::complex<double>> dft(int set) override;
    /// dft_on_root (distributed.hpp) of the inner engine, expanded on `root` as dft() does.
    bool dft_on_root(const std::vector<int>& sets, const std::vector<std::size_t>& freqs, int root,
                     std::vector<std::vector<std::complex<double>>>& out);
    std::vector<double> time_samples(int probe) override;
    void update_materials(SceneView edited) override;
    /// Its own frame source: the whole-domain frames below.
    FrameSource& frames() override { return *this; }
    /// The inner engine's (the reduced grid's storage and split steps).
    SubdomainAccess* subdomain() override { return inner_->subdomain(); }
    DistributionInfo distribution() const override { return inner_->distribution(); }

    // FrameSource, for the whole domain (file comment).
    Image8 frame(const FrameRequest& request) override;
    FieldSamples sample_field(Component component, int max_width, int max_height, bool squared = false) override;
    void set_frame_slice(const FrameSlice& slice) override;

    const MirrorMap& mirror() const { return map_; }
    const Engine& inner() const { return *inner_; }

private:
    SceneView full_;
    MirrorMap map_;
    std::shared_ptr<const Scene> reduced_;
    ReducedMonitors monitors_;
    std::unique_ptr<Engine> inner_;
    FrameSlice slice_;  ///< the whole-domain slice (3D)
};

/// The engine for `scene`: make(scene) itself without symmetry planes, else a
/// SymmetricEngine over make(reduce_by_symmetry(scene)). `scene` must outlive the engine.
/// Throws what mirror_map / reduce_by_symmetry / make throw.
template <typename Make>
std::unique_ptr<Engine> make_symmetric_engine(const Scene& scene, Make&& make) {
    if (scene.symmetry[0] == 0 && scene.symmetry[1] == 0 && scene.symmetry[2] == 0) return make(scene);
    MirrorMap map = mirror_map(scene);
    ReducedMonitors monitors;
    auto reduced = std::make_shared<const Scene>(reduce_by_symmetry(scene, map, &monitors));
    std::unique_ptr<Engine> inner = make(*reduced);
    return std::make_unique<SymmetricEngine>(view_of(scene), std::move(map), std::move(reduced), std::move(monitors),
                                             std::move(inner));
}

}  // namespace golightly
