// Invariants of the hybrid solvers' transfers (physics.md section 3): the B-spline kernels
// are partitions of unity that reproduce linear functions; P2G keeps mass and momentum;
// a PIC round trip of a linear field and an APIC round trip of an affine field are exact.
// Formulas: physics.md (3.1)-(3.6), (3.16)-(3.19).
#include "grid/bspline.h"
#include "solvers/hybrid.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <random>

namespace sloshlab {
namespace {

const char* kernelName(TransferKernel k) {
  return k == TransferKernel::Linear ? "linear" : k == TransferKernel::Quadratic ? "quadratic" : "cubic";
}

template <class K>
void expectPartitionOfUnity(const char* name) {
  double worstSum = 0.0, worstLinear = 0.0, worstGradient = 0.0;
  for (double g = -3.0; g <= 3.0; g += 0.0137) {
    double w[4], dw[4];
    const int base = K::weights(g, w, dw);
    double sum = 0.0, first = 0.0, grad = 0.0;
    for (int k = 0; k < K::kWidth; ++k) {
      EXPECT_GE(w[k], 0.0);
      EXPECT_LE(std::abs(g - (base + k)), K::kSupport + 1e-12);
      sum += w[k], first += w[k] * (base + k), grad += dw[k];
    }
    worstSum = std::max(worstSum, std::abs(sum - 1.0));
    worstLinear = std::max(worstLinear, std::abs(first - g));
    worstGradient = std::max(worstGradient, std::abs(grad));
  }
  EXPECT_LT(worstSum, 1e-14) << name;
  EXPECT_LT(worstLinear, 1e-13) << name;
  EXPECT_LT(worstGradient, 1e-13) << name;
}

TEST(BSpline, PartitionOfUnityAndLinearReproduction) {
  expectPartitionOfUnity<LinearBSpline>("linear");
  expectPartitionOfUnity<QuadraticBSpline>("quadratic");
  expectPartitionOfUnity<CubicBSpline>("cubic");
}

// A unit box, h = 0.05 (20 cells per axis), particles of spacing 0.025.
template <int D>
std::unique_ptr<HybridSolver<D>> makeSolver(Transfer transfer, TransferKernel kernel, ParticleSet<D>& p) {
  auto solver = std::make_unique<HybridSolver<D>>(transfer);
  solver->params().setFromText("kernel", kernelName(kernel));
  SolverSetup<D> setup;
  setup.boxSize = Vec<D>(1.0);
  setup.spacing = 0.025;
  solver->reset(p, setup);
  return solver;
}

template <int D>
Mat<D> randomMatrix(std::mt19937_64& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  Mat<D> A;
  for (int i = 0; i < D; ++i)
    for (int j = 0; j < D; ++j) A[i][j] = u(rng);
  return A;
}

// Random particles in [lo, hi]^D.
template <int D>
void scatterRandom(ParticleSet<D>& p, std::size_t n, double lo, double hi, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> u(lo, hi);
  p.resize(n);
  for (std::size_t i = 0; i < n; ++i)
    for (int b = 0; b < D; ++b) p.x[i][b] = u(rng);
}

template <int D>
void expectP2GConserves(Transfer transfer, TransferKernel kernel) {
  std::mt19937_64 rng(7);
  ParticleSet<D> p;
  scatterRandom<D>(p, D == 2 ? 3000 : 12000, 0.3, 0.7, rng);  // far from every wall
  auto solver = makeSolver<D>(transfer, kernel, p);
  std::uniform_real_distribution<double> u(-1.0, 1.0), mass(0.5, 1.5);
  for (std::size_t i = 0; i < p.size(); ++i) {
    for (int b = 0; b < D; ++b) p.v[i][b] = u(rng);
    p.m[i] = mass(rng);
  }
  if (transfer == Transfer::Apic) {
    solver->affine().resize(p.size());
    for (auto& c : solver->affine())
      for (int a = 0; a < D; ++a)
        for (int b = 0; b < D; ++b) c[a][b] = 5.0 * u(rng);
  }
  double massParticles = 0.0;
  Vec<D> momentumParticles(0.0);
  for (std::size_t i = 0; i < p.size(); ++i) massParticles += p.m[i], momentumParticles += p.m[i] * p.v[i];
  solver->transferToGrid(p);
  Vec<D> massGrid(0.0), momentumGrid(0.0);
  for (int a = 0; a < D; ++a)
    for (std::size_t k = 0; k < solver->gridMass()[a].size(); ++k) {
      massGrid[a] += solver->gridMass()[a][k];
      momentumGrid[a] += solver->gridMass()[a][k] * solver->gridVelocity()[a][k];
    }
  double massError = 0.0, momentumError = 0.0;
  for (int a = 0; a < D; ++a) {
    massError = std::max(massError, std::abs(massGrid[a] / massParticles - 1.0));
    momentumError = std::max(momentumError, std::abs(momentumGrid[a] - momentumParticles[a]) /
                                                (massParticles * 1.0));  // relative to sum m |v|max
  }
  EXPECT_LT(massError, 1e-10);
  EXPECT_LT(momentumError, 1e-10);
  std::printf("[ figures  ] P2G %dD %s, %s kernel: %zu particles, mass error %.1e, momentum error %.1e (relative)\n",
              D, solver->name(), kernelName(kernel), p.size(), massError, momentumError);
}

TEST(HybridTransfers, P2GKeepsMassAndMomentum) {
  for (TransferKernel k : {TransferKernel::Linear, TransferKernel::Quadratic, TransferKernel::Cubic}) {
    expectP2GConserves<2>(Transfer::Flip, k);
    expectP2GConserves<2>(Transfer::Apic, k);
    expectP2GConserves<3>(Transfer::Flip, k);
    expectP2GConserves<3>(Transfer::Apic, k);
  }
}

// PIC: particles on the emitter's lattice (2 per cell and axis) carrying v = A x + b. Each
// node sees a lattice symmetric about itself, so P2G gives u_i = A x_i + b, and G2P
// reproduces linear functions: the particles away from the walls get their v back.
template <int D>
void expectPicRoundTripExact(TransferKernel kernel) {
  std::mt19937_64 rng(11);
  ParticleSet<D> p;
  const int perAxis = 40;  // spacing 0.025 in the unit box
  std::size_t n = 1;
  for (int b = 0; b < D; ++b) n *= perAxis;
  p.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    std::size_t rest = i;
    for (int b = 0; b < D; ++b) {
      p.x[i][b] = (static_cast<double>(rest % perAxis) + 0.5) * 0.025;
      rest /= perAxis;
    }
  }
  auto solver = makeSolver<D>(Transfer::Pic, kernel, p);
  const Mat<D> A = randomMatrix<D>(rng);
  const Vec<D> b0(0.3);
  for (std::size_t i = 0; i < n; ++i) p.v[i] = A * p.x[i] + b0;
  solver->transferToGrid(p);
  solver->gridToParticles(p);
  double worst = 0.0;
  int checked = 0;
  for (std::size_t i = 0; i < p.size(); ++i) {
    bool interior = true;
    for (int b = 0; b < D; ++b) interior = interior && p.x[i][b] > 0.26 && p.x[i][b] < 0.74;
    if (!interior) continue;
    worst = std::max(worst, glm::length(p.v[i] - (A * p.x[i] + b0)));
    ++checked;
  }
  EXPECT_GT(checked, 100);
  EXPECT_LT(worst, 1e-12);
  std::printf("[ figures  ] PIC round trip %dD, %s kernel, linear field: max error %.1e m/s over %d particles\n", D,
              kernelName(kernel), worst, checked);
}

TEST(HybridTransfers, PicRoundTripOfALinearFieldIsExact) {
  for (TransferKernel k : {TransferKernel::Linear, TransferKernel::Quadratic, TransferKernel::Cubic}) {
    expectPicRoundTripExact<2>(k);
    expectPicRoundTripExact<3>(k);
  }
}

// APIC: random particles carrying v = A x + b and C = A. P2G's affine term makes every
// node exactly A x_i + b whatever the particle positions, and G2P returns v and C
// (D_p = h^2/4 or h^2/3 exactly for B-splines; the gradient form for the linear kernel).
template <int D>
void expectApicRoundTripExact(TransferKernel kernel) {
  std::mt19937_64 rng(13);
  ParticleSet<D> p;
  scatterRandom<D>(p, D == 2 ? 4000 : 20000, 0.2, 0.8, rng);
  auto solver = makeSolver<D>(Transfer::Apic, kernel, p);
  const Mat<D> A = randomMatrix<D>(rng);
  const Vec<D> b0(-0.2);
  auto& C = solver->affine();
  C.resize(p.size());
  for (std::size_t i = 0; i < p.size(); ++i) {
    p.v[i] = A * p.x[i] + b0;
    for (int a = 0; a < D; ++a)
      for (int b = 0; b < D; ++b) C[i][a][b] = A[b][a];  // row a of A (glm: A[col][row])
  }
  solver->transferToGrid(p);
  solver->gridToParticles(p);
  double worstV = 0.0, worstC = 0.0;
  int checked = 0;
  for (std::size_t i = 0; i < p.size(); ++i) {
    bool interior = true;
    for (int b = 0; b < D; ++b) interior = interior && p.x[i][b] > 0.35 && p.x[i][b] < 0.65;
    if (!interior) continue;
    worstV = std::max(worstV, glm::length(p.v[i] - (A * p.x[i] + b0)));
    for (int a = 0; a < D; ++a)
      for (int b = 0; b < D; ++b) worstC = std::max(worstC, std::abs(C[i][a][b] - A[b][a]));
    ++checked;
  }
  EXPECT_GT(checked, 100);
  EXPECT_LT(worstV, 1e-12);
  EXPECT_LT(worstC, 1e-10);
  std::printf("[ figures  ] APIC round trip %dD, %s kernel, affine field: max error v %.1e m/s, C %.1e 1/s over %d "
              "particles\n",
              D, kernelName(kernel), worstV, worstC, checked);
}

TEST(HybridTransfers, ApicRoundTripOfAnAffineFieldIsExact) {
  for (TransferKernel k : {TransferKernel::Linear, TransferKernel::Quadratic, TransferKernel::Cubic}) {
    expectApicRoundTripExact<2>(k);
    expectApicRoundTripExact<3>(k);
  }
}

}  // namespace
}  // namespace sloshlab
