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
  vec4 opening;        // the outlet's hole in a wall (physics.md (14.3)): centre, w its radius
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
  uint obstacles;      // obstacles fixed to the container (Obstacles below)
  int openingWall;     // the hole's wall, 2 axis + side; -1: none
};

// The floating bodies' boundary samples of this step (physics.md (16.11);
// sim/gpu/body_samples.h): bodySample[2k] is sample k's position with its cell's index
// (cellIndex(cellOf(x))) in w as bits, bodySample[2k + 1] its velocity (w: 1 for a
// floating body's sample, 0 for an obstacle's, which stands still); they are ordered
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

// The obstacles fixed to the container (sloshlab/solids.h, Solids::Prim; physics.md §15),
// four vec4s each: (lo, shape: 0 box, 1 sphere, 2 disc, 3 capsule, plus 4 for a hole cut
// from the obstacle before it), (hi, radius), (a, 1 where it runs through the depth),
// (b, 1 where it is the complement of the shape).
layout(std430, binding = 12) readonly buffer Obstacles { vec4 obstacle[]; };

// phi of obstacle k and its outward normal (15.1)-(15.2), as Solids::primDistance.
float obstacleDistance(uint k, VecD xIn, out VecD normal) {
  vec4 p0 = obstacle[4u * k], p1 = obstacle[4u * k + 1u], p2 = obstacle[4u * k + 2u], p3 = obstacle[4u * k + 3u];
  bool planar = p2.w > 0.5;
  VecD x = xIn;
  int axes = planar ? 2 : DIM;
#if DIM == 3
  if (planar) x.z = p2.z;  // through the depth: measured in x and y
#endif
  normal = VecD(0.0);
  float d;
  if (mod(p0.w, 4.0) < 0.5) {  // a box: outside, the length of q's positive part; inside, the largest q
    VecD q = VecD(0.0), sgn = VecD(1.0);
    float outsideSq = 0.0, inside = -3.0e38;
    int deepest = 0;
    for (int k2 = 0; k2 < axes; ++k2) {
      float c = 0.5 * (p0[k2] + p1[k2]), halfSide = 0.5 * (p1[k2] - p0[k2]);
      sgn[k2] = x[k2] >= c ? 1.0 : -1.0;
      q[k2] = abs(x[k2] - c) - halfSide;
      if (q[k2] > 0.0) outsideSq += q[k2] * q[k2];
      if (q[k2] > inside) {
        inside = q[k2];
        deepest = k2;
      }
    }
    if (outsideSq > 0.0) {
      d = sqrt(outsideSq);
      for (int k2 = 0; k2 < axes; ++k2) normal[k2] = q[k2] > 0.0 ? sgn[k2] * q[k2] / d : 0.0;
    } else {
      normal[deepest] = sgn[deepest];
      d = inside;
    }
  } else {  // sphere, disc, capsule: the distance to the segment [a, b], less the radius
    VecD a = DIMS(p2), ab = DIMS(p3) - a;
    float len2 = dot(ab, ab);
    float t = len2 > 0.0 ? clamp(dot(x - a, ab) / len2, 0.0, 1.0) : 0.0;
    VecD r = x - (a + t * ab);
    float l = length(r);
    if (l > 0.0) normal = r / l;
    else normal.y = 1.0;  // at the axis itself: out through the top
    d = l - p1.w;
  }
  if (p3.w > 0.5) {  // the complement (15.1a)
    normal = -normal;
    d = -d;
  }
  return d;
}

// phi of the obstacle whose base is k, less the holes that follow it (15.1b), as
// Solids::groupDistance; k moves to its last hole.
float groupDistance(inout uint k, VecD x, out VecD normal) {
  float d = obstacleDistance(k, x, normal);
  while (k + 1u < obstacles && obstacle[4u * (k + 1u)].w > 3.5) {
    ++k;
    VecD n;
    float cut = -obstacleDistance(k, x, n);
    if (cut > d) {
      d = cut;
      normal = -n;
    }
  }
  return d;
}

// Solids::pushOut (15.3): each obstacle in turn, twice, moves a point closer than
// `margin` out along its normal and takes away its velocity into it. True if moved.
bool pushOutOfObstacles(inout VecD x, inout VecD v) {
  bool moved = false;
  for (int pass = 0; pass < 2; ++pass)
    for (uint k = 0u; k < obstacles; ++k) {
      VecD n;
      float d = groupDistance(k, x, n);
      if (!(d < margin)) continue;
      x += (margin - d) * n;
      float vn = dot(v, n);
      if (vn < 0.0) v -= vn * n;
      moved = true;
    }
  return moved;
}

// WallOpening (sloshlab/solids.h): x lies past the hole's wall, by more than `reach`
// inside it for a negative reach.
bool pastOpeningWall(VecD x, float reach) {
  int axis = openingWall / 2;
  return openingWall % 2 == 0 ? x[axis] < -reach : x[axis] > box[axis] + reach;
}
// x's offset from the hole's centre along its wall is under its radius.
bool acrossOpening(VecD x) {
  VecD d = x - DIMS(opening);
  d[openingWall / 2] = 0.0;
  return dot(d, d) < opening.w * opening.w;
}
// passesWall (containment.h): within `reach` of the hole's wall and across the hole, or
// past the wall already (in the spout, a jet).
bool throughOpening(VecD x, float reach) {
  if (openingWall < 0) return false;
  return pastOpeningWall(x, 0.0) || (pastOpeningWall(x, -reach) && acrossOpening(x));
}

void keepInsideBox(inout VecD x, inout VecD v) {
  bool passing = throughOpening(x, margin);  // that wall lets it pass (14.3)
  for (int k = 0; k < DIM; ++k) {
    if (passing && k == openingWall / 2) continue;
    if (x[k] < margin) {
      x[k] = margin;
      v[k] = max(v[k], 0.0);
    } else if (x[k] > box[k] - margin) {
      x[k] = box[k] - margin;
      v[k] = min(v[k], 0.0);
    }
  }
}
// contain (sim/src/containment.h): the centre at least `margin` inside every wall and
// outside every obstacle, no velocity into a wall or obstacle it was pushed back from.
void keepInside(inout VecD x, inout VecD v) {
  keepInsideBox(x, v);
  if (obstacles > 0u && pushOutOfObstacles(x, v)) keepInsideBox(x, v);
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
