// The floating bodies on the GPU path (physics.md §16): their boundary samples in device
// memory, where the SPH shaders find them as they find the box's (common.glsl,
// wall_samples.glsl), and the particles near them brought to the host and back for the
// contacts (16.5)-(16.6) and the share of a light body's push (16.14), which
// RigidBodies does on the host as for the CPU solvers.
#pragma once

#include "compute.h"
#include "step_uniforms.h"

#include "sloshlab/particles.h"
#include "sloshlab/solver.h"

#include <cstdint>
#include <span>
#include <vector>

namespace sloshlab::gpu {

// The bucket of a cell of the sort's grid among `buckets` (a power of two): an integer
// hash, the same as wall_samples.glsl's bodyBucketOf.
std::uint32_t bodyBucketOf(std::uint32_t cell, std::uint32_t buckets);

// A step's body samples, ordered by the bucket of their cell (physics.md (13.2); a
// counting sort on the host: they are few and already there), at bindings 10 and 11 of
// common.glsl.
template <int D>
class DeviceBodySamples {
 public:
  // The samples (none where `samples` is null or empty) into device memory, and the Step
  // block's body fields (bodyLo, bodyHi, bodySamples, bodyBuckets) into `u`, not uploaded.
  void upload(const BodySamples<D>* samples, StepUniforms& u);
  // At bindings 10 and 11 (a placeholder where there are none).
  void bind();
  std::size_t size() const { return m_order.size(); }
  // Sample k in bucket order is samples' m_order[k].
  std::span<const std::uint32_t> order() const { return m_order; }
  // Adds the first D components of every `stride`-th vec4 of `pushes`, one per sample in
  // bucket order, to the samples' impulses.
  void addImpulses(const Buffer& pushes, unsigned stride, BodySamples<D>& samples) const;

 private:
  std::vector<std::uint32_t> m_order;
  Buffer m_data, m_buckets;
};

// The particles within given spheres, gathered from the device into a host set and sent
// back after the host changed them (near_particles.comp). The set holds them in the
// device's order: the host's passes over them run in a fixed order from run to run. And
// the tops of the liquid's columns away from the bodies, for their drafts.
template <int D>
class NearParticles {
 public:
  explicit NearParticles(int dim);
  // The particles of x, v (n of them, each of mass `mass`) within a sphere of `centres`
  // and `radii` into `out`.
  void gather(const Buffer& x, const Buffer& v, std::size_t n, double mass, std::span<const Vec<D>> centres,
              std::span<const double> radii, ParticleSet<D>& out);
  // `near` (the set gather filled, changed) back into x and v.
  void scatter(const ParticleSet<D>& near, Buffer& x, Buffer& v);
  // Solver::columnTops over the n particles of x in a box of size `box`.
  void columnTops(const Buffer& x, std::size_t n, const Vec<D>& box, double width, std::span<const Vec<D>> centres,
                  std::span<const double> radii, std::vector<double>& tops);

 private:
  // The spheres into m_spheres, their bounds into lo and hi.
  void uploadSpheres(std::span<const Vec<D>> centres, std::span<const double> radii, float (&lo)[4], float (&hi)[4]);

  ComputeProgram m_program;
  Buffer m_spheres, m_list, m_compact, m_columns;
  std::vector<std::uint32_t> m_index;  // the gathered particles' places, ascending
};

}  // namespace sloshlab::gpu
