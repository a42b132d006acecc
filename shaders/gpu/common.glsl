// Shared by every compute shader of the GPU path (sim/gpu/): the step's uniforms, the
// cubic spline (physics.md (4.1)-(4.4)), the cell grid of the counting sort, the walls
// (keepInside, physics.md (2.5)) and the boundary samples of the box (Akinci et al. 2012,
// laid out as in sim/src/boundary_samples.cpp). DIM (2 or 3) is defined before this
// file; positions are vec4 with the particle's number in w (as float bits).

#if DIM == 2
#define VecD vec2
#define IVecD ivec2
#define DIMS(a) (a).xy
#else
#define VecD vec3
#define IVecD ivec3
#define DIMS(a) (a).xyz
#endif

layout(std140, binding = 0) uniform Step {
  vec4 box;            // L, the container's inner size
  vec4 gravityMinusA;  // R^T (g - A) (physics.md (8.3))
  vec4 frameCentre;    // the pivot of the frame's turn, L/2
  ivec4 gridDims;      // cells per axis; w: all cells
  ivec4 innerCount;    // boundary samples' inner coordinates per axis
  vec4 innerStep;      // and their spacing L_k / innerCount_k
  vec4 frameOmega;     // R^T omega, the container's turn rate in its own axes
  vec4 frameAlpha;     // and R^T alpha, its angular acceleration
  vec4 bodyLo;         // the floating bodies' samples' bounds, grown by h (wall_samples.glsl)
  vec4 bodyHi;
  float cellSize;      // the sort's cell, h (1 + skin)
  float h;             // kernel support
  float sigma;         // cubic spline normalisation (4.1)
  float volume;        // V = m / rho0
  float wallVolume;    // V_b (Akinci Eq. 4)
  float spacing;       // particle spacing s
  float margin;        // centres stay this far inside the walls
  float dt;
  float damping;       // settling damping zeta (1/s)
  float relax;         // omega of the Jacobi sweeps (7.4)
  float eps;           // constraint relaxation, absolute (7.3)
  float tensile;       // k lambda_ref omega (dt/dt_sub)^2 of s_corr (7.5)
  float invWdq;        // 1 / W(dq h)
  float warm;          // w dt^2 of the warm start (7.7)
  float share;         // the share of the start's density error removed in this step
  float xsph;          // c V of XSPH (7.10)
  float vorticity;     // epsilon_v dt of vorticity confinement (7.9)
  uint n;              // particles
  int layers;          // boundary sample layers beyond each wall
  uint listCapacity;   // neighbour-list entries per particle (neighbours.glsl)
  uint bodySamples;    // the floating bodies' samples this step (0: none)
  uint bodyBuckets;    // the buckets of their hashed cells, a power of two
  uint firstBodySample;  // the box's samples come first (wall_samples.glsl): their count
};

// The floating bodies' boundary samples of this step (physics.md (16.11);
// sim/gpu/body_samples.h): bodySample[2k] is sample k's position with its cell's index
// (cellIndex(cellOf(x))) in w as bits, bodySample[2k + 1] its velocity; they are ordered
// by bucket, bucket(cell) = the cell's hash modulo bodyBuckets, and bucket q holds
// [bodyBucketStart[q], bodyBucketStart[q + 1]). Among all the boundary samples, body
// sample k is number firstBodySample + k, after the box's (wall_samples.glsl).
layout(std430, binding = 10) readonly buffer BodySampleData { vec4 bodySample[]; };
layout(std430, binding = 11) readonly buffer BodyBuckets { uint bodyBucketStart[]; };

// The cubic spline's W and (dW/dr)/r for r^2 < h^2 in one expression (physics.md (4.4)).
void kernelWeightAndFactor(float r2, out float w, out float factor) {
  float invH = 1.0 / h;
  float q = sqrt(r2) * invH;
  float t = 1.0 - q;
  float u = max(0.5 - q, 0.0);
  w = sigma * (2.0 * t * t * t - 8.0 * u * u * u);
  factor = sigma * invH * invH * (24.0 * u * u - 6.0 * t * t) / max(q, 1e-12);
}

IVecD cellOf(VecD x) {
  return clamp(IVecD(floor(x / cellSize)), IVecD(0), DIMS(gridDims) - 1);
}
uint cellIndex(IVecD c) {
#if DIM == 2
  return uint(c.x + gridDims.x * c.y);
#else
  return uint(c.x + gridDims.x * (c.y + gridDims.y * c.z));
#endif
}

// keepInside (sim/src/containment.h): the centre at least `margin` inside every wall, no
// velocity into a wall it was pushed back from.
void keepInside(inout VecD x, inout VecD v) {
  for (int k = 0; k < DIM; ++k) {
    if (x[k] < margin) {
      x[k] = margin;
      v[k] = max(v[k], 0.0);
    } else if (x[k] > box[k] - margin) {
      x[k] = box[k] - margin;
      v[k] = min(v[k], 0.0);
    }
  }
}
VecD keptInside(VecD x) {
  VecD v = VecD(0.0);
  keepInside(x, v);
  return x;
}

// The frame's acceleration on a particle at x with velocity v (container.h, physics.md (8.3)):
// R^T (g - A) - alpha x r - omega x (omega x r) - 2 omega x v, r = x - pivot; in 2D
// omega and alpha lie along z.
VecD frameAcceleration(VecD x, VecD v) {
  vec3 r = vec3(0.0), u = vec3(0.0);
  DIMS(r) = DIMS(x) - DIMS(frameCentre);
  DIMS(u) = DIMS(v);
  vec3 a = gravityMinusA.xyz - cross(frameAlpha.xyz, r) - cross(frameOmega.xyz, cross(frameOmega.xyz, r)) -
           2.0 * cross(frameOmega.xyz, u);
  return DIMS(a);
}
