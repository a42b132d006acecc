// Solids other than the box on the GPU path: the obstacles (physics.md §15) and the
// floating bodies (§16). Their boundary samples in device memory, where the SPH shaders
// find them as they find the box's (common.glsl, wall_samples.glsl); the obstacles'
// shapes, which keepInside pushes particles out of; and the particles near the bodies
// brought to the host and back for the contacts (16.5)-(16.6) and the share of a light
// body's push (16.14), which RigidBodies does on the host as for the CPU solvers.
#pragma once

#include "compute.h"
#include "step_uniforms.h"

#include "sloshlab/particles.h"
#include "sloshlab/solids.h"
#include "sloshlab/solver.h"

#include <cstdint>
#include <span>
#include <vector>

namespace sloshlab::gpu {

// The bucket of a cell of the sort's grid among `buckets` (a power of two): an integer
// hash, the same as wall_samples.glsl's bodyBucketOf.
std::uint32_t bodyBucketOf(std::uint32_t cell, std::uint32_t buckets);

// The boundary samples beyond the box's: the obstacles' (fixed in the container, physics.md
// (15.4)) and the floating bodies' of this step (16.11), ordered by the bucket of their
// cell (physics.md (13.2); a counting sort on the host: they are few and already there),
// at bindings 10 and 11 of common.glsl; and the obstacles' shapes at binding 12.
template <int D>
class SolidSamples {
 public:
  // The obstacles (shapes and samples, which stay until the next call) into device
  // memory, and their count into `u`; `depth`: how deep inside them samples lie (h).
  void setObstacles(const Solids<D>& solids, double spacing, double depth, const Vec<D>& box, StepUniforms& u);
  // The solids' wall opening (an outlet's hole, physics.md (14.3)) into `u`: its centre,
  // radius and wall (openingWall -1: none); setObstacles does this too. Not uploaded.
  static void setOpening(const WallOpening<D>& opening, StepUniforms& u);
  // The obstacles' samples and this step's bodies' (none where `bodies` is null or
  // empty) into device memory, and the Step block's fields for them (bodyLo, bodyHi,
  // bodySamples, bodyBuckets) into `u`, not uploaded. The obstacles' alone go up once.
  void upload(const BodySamples<D>* bodies, StepUniforms& u);
  // At bindings 10, 11 and 12 (placeholders where there are none).
  void bind();
  // Samples in all, the obstacles' and the bodies'.
  std::size_t size() const { return m_order.size(); }
  // Adds the first D components of every `stride`-th vec4 of `pushes`, one per sample in
  // bucket order, to the bodies' samples' impulses (the obstacles' take none).
  void addImpulses(const Buffer& pushes, unsigned stride, BodySamples<D>& bodies) const;

 private:
  std::vector<Vec<D>> m_fixed;          // the obstacles' samples
  std::vector<std::uint32_t> m_order;   // bucket order -> index among the fixed, then the bodies'
  bool m_fixedOnly = false;             // the device holds the obstacles' samples alone
  Buffer m_data, m_buckets, m_obstacles;
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
