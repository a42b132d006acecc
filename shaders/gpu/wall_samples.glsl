// The box's boundary samples (Akinci et al. 2012), laid out as sim/src/boundary_samples.cpp
// lays them out but never stored: on axis k the lattice has `layers` coordinates below
// 0 and above L_k at spacing s, and innerCount_k evenly spaced ones inside; a sample is
// any combination with at least one coordinate outside the box (physics.md §13).
//
// A kernel that sums over the samples near a particle defines, before including this,
//     struct WallState { ... };
//     void onWallSample(uint b, float W, VecD gradW, inout WallState s);
// and calls forEachWallSample(x, s): b numbers the sample among all the box's samples
// (shellIndex), then the floating bodies' (below), for per-sample arrays;
// gradW = gradW(x - x_b).

#define MAX_AXIS 20
ivec3 latticeSize() {
  ivec3 a = ivec3(1);
  for (int k = 0; k < DIM; ++k) a[k] = innerCount[k] + 2 * layers;
  return a;
}
bool outsideOnAxis(int k, int a) { return a < layers || a >= layers + innerCount[k]; }
float latticeCoordinate(int k, int a) {
  if (a < layers) return -(float(layers - 1 - a) + 0.5) * spacing;
  if (a < layers + innerCount[k]) return (float(a - layers) + 0.5) * innerStep[k];
  return box[k] + (float(a - layers - innerCount[k]) + 0.5) * spacing;
}

// The samples are numbered slab by slab: slab k holds those whose first axis outside the
// box is k (2 layers choices on k, the inner ones on the axes before, all on the axes
// after), so every sample has one number and none is stored twice.
uint slabSize(int k) {
  ivec3 A = latticeSize();
  uint size = uint(2 * layers);
  for (int j = 0; j < DIM; ++j)
    if (j < k) size *= uint(innerCount[j]);
    else if (j > k) size *= uint(A[j]);
  return size;
}
uint shellCount() {
  uint total = 0u;
  for (int k = 0; k < DIM; ++k) total += slabSize(k);
  return total;
}
uint shellIndex(ivec3 a) {
  ivec3 A = latticeSize();
  int k = 0;
  while (k < DIM - 1 && !outsideOnAxis(k, a[k])) ++k;
  uint index = 0u;
  for (int j = 0; j < k; ++j) index += slabSize(j);
  uint local = uint(a[k] < layers ? a[k] : a[k] - innerCount[k]);
  uint stride = uint(2 * layers);
  for (int j = 0; j < DIM; ++j) {
    if (j == k) continue;
    local += uint(j < k ? a[j] - layers : a[j]) * stride;
    stride *= uint(j < k ? innerCount[j] : A[j]);
  }
  return index + local;
}
// The lattice indices and the position of sample b.
ivec3 shellLattice(uint b) {
  ivec3 A = latticeSize();
  int k = 0;
  while (k < DIM - 1 && b >= slabSize(k)) b -= slabSize(k), ++k;
  ivec3 a = ivec3(0);
  uint o = b % uint(2 * layers);
  b /= uint(2 * layers);
  a[k] = int(o) < layers ? int(o) : int(o) + innerCount[k];
  for (int j = 0; j < DIM; ++j) {
    if (j == k) continue;
    uint size = uint(j < k ? innerCount[j] : A[j]);
    a[j] = int(b % size) + (j < k ? layers : 0);
    b /= size;
  }
  return a;
}
VecD samplePosition(ivec3 a) {
  VecD x;
  for (int k = 0; k < DIM; ++k) x[k] = latticeCoordinate(k, a[k]);
  return x;
}

// The lattice coordinates on axis k within h of xk: their lattice indices.
int axisSamples(int k, float xk, out int index[MAX_AXIS]) {
  int m = 0;
  int first = max(0, int(ceil((xk - h) / innerStep[k] - 0.5)));
  int last = min(innerCount[k] - 1, int(floor((xk + h) / innerStep[k] - 0.5)));
  for (int a = 0; a < layers && m < MAX_AXIS; ++a)
    if (abs(xk - latticeCoordinate(k, a)) < h) index[m++] = a;
  for (int i = first; i <= last && m < MAX_AXIS; ++i) index[m++] = layers + i;
  for (int l = 0; l < layers && m < MAX_AXIS; ++l) {
    int a = layers + innerCount[k] + l;
    if (abs(xk - latticeCoordinate(k, a)) < h) index[m++] = a;
  }
  return m;
}

bool nearWall(VecD x) {
  for (int k = 0; k < DIM; ++k)
    if (x[k] < h + 0.5 * spacing || x[k] > box[k] - h - 0.5 * spacing) return true;
  return false;
}

// The floating bodies' samples (common.glsl), found through their buckets (physics.md (13.2)).
// The integer hash of body_samples.cpp (bodyBucketOf): the two must agree.
uint bodyBucketOf(uint cell) {
  uint v = cell;
  v ^= v >> 16;
  v *= 0x7feb352du;
  v ^= v >> 15;
  v *= 0x846ca68bu;
  v ^= v >> 16;
  return v & (bodyBuckets - 1u);
}

VecD sampleAt(uint b) {
  return b < firstBodySample ? samplePosition(shellLattice(b)) : DIMS(bodySample[2u * (b - firstBodySample)]);
}

void forEachBodySample(VecD x, inout WallState s) {
  if (bodySamples == 0u) return;
  for (int k = 0; k < DIM; ++k)
    if (x[k] < bodyLo[k] || x[k] > bodyHi[k]) return;
  float h2 = h * h;
  IVecD c = cellOf(x);
  IVecD lo = max(c - 1, IVecD(0)), hi = min(c + 1, DIMS(gridDims) - 1);
#if DIM == 2
  for (int cz = 0; cz <= 0; ++cz)
#else
  for (int cz = lo.z; cz <= hi.z; ++cz)
#endif
    for (int cy = lo.y; cy <= hi.y; ++cy)
      for (int cx = lo.x; cx <= hi.x; ++cx) {
#if DIM == 2
        uint cell = cellIndex(IVecD(cx, cy));
#else
        uint cell = cellIndex(IVecD(cx, cy, cz));
#endif
        uint bucket = bodyBucketOf(cell);
        for (uint k = bodyBucketStart[bucket]; k < bodyBucketStart[bucket + 1u]; ++k) {
          vec4 xb = bodySample[2u * k];
          if (floatBitsToUint(xb.w) != cell) continue;  // another cell of the same bucket
          VecD r = x - DIMS(xb);
          float r2 = dot(r, r);
          if (r2 >= h2) continue;
          float w, f;
          kernelWeightAndFactor(r2, w, f);
          onWallSample(firstBodySample + k, w, f * r, s);
        }
      }
}

void forEachBoxSample(VecD x, inout WallState s) {
  if (!nearWall(x)) return;
  float h2 = h * h;
  int i0[MAX_AXIS], i1[MAX_AXIS], i2[MAX_AXIS];
  int m0 = axisSamples(0, x[0], i0);
  int m1 = axisSamples(1, x[1], i1);
#if DIM == 3
  int m2 = axisSamples(2, x[2], i2);
#else
  int m2 = 1;
  i2[0] = 0;
#endif
  for (int a = 0; a < m0; ++a)
    for (int b = 0; b < m1; ++b)
      for (int c = 0; c < m2; ++c) {
        ivec3 l = ivec3(i0[a], i1[b], i2[c]);
        bool outside = outsideOnAxis(0, l.x) || outsideOnAxis(1, l.y);
#if DIM == 3
        outside = outside || outsideOnAxis(2, l.z);
#endif
        if (!outside) continue;
        VecD xb = samplePosition(l);
        if (openingWall >= 0 && pastOpeningWall(xb, 0.0) && acrossOpening(xb)) continue;  // the hole (14.3)
        VecD r = x - xb;
        float r2 = dot(r, r);
        if (r2 >= h2) continue;
        float w, f;
        kernelWeightAndFactor(r2, w, f);
        onWallSample(shellIndex(l), w, f * r, s);
      }
}

// Every boundary sample within h of x, the box's, then the bodies'.
void forEachWallSample(VecD x, inout WallState s) {
  forEachBoxSample(x, s);
  forEachBodySample(x, s);
}
