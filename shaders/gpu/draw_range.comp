// The colour range of a draw frame (draw_frame.comp): the 1st and 99th percentiles of the
// values, as the host path takes them, from a histogram of kBins bins between the
// smallest and largest value. Over `count` samples, every `stride`-th particle (at most
// 65,536 of them: a colour scale needs no more); non-finite values are left out.
//   pass 0: each work group's smallest and largest value
//   pass 1: one group: over the groups, into range; the bins cleared
//   pass 2: the histogram (per group in shared memory, then added up)
layout(local_size_x = 256) in;
const uint kBins = 1024u;
layout(std430, binding = 1) readonly buffer Points { vec4 points[]; };
layout(std430, binding = 2) buffer Partials { vec2 partial[]; };
layout(std430, binding = 3) buffer Range {
  vec4 range;  // smallest, largest
  uint bins[];
};
uniform uint count;
uniform uint stride;
uniform uint groups;
uniform int pass;

shared vec2 s[256];
shared uint hist[kBins];

bool usable(float q) { return !isnan(q) && !isinf(q); }

void main() {
  uint t = gl_LocalInvocationID.x;
  if (pass == 2) {
    for (uint k = t; k < kBins; k += 256u) hist[k] = 0u;
    barrier();
    uint i = gl_GlobalInvocationID.x;
    float lo = range.x, hi = range.y;
    if (i < count && usable(points[i * stride].w)) {
      float q = points[i * stride].w;
      uint bin = hi > lo ? uint(clamp((q - lo) / (hi - lo) * float(kBins), 0.0, float(kBins - 1u))) : 0u;
      atomicAdd(hist[bin], 1u);
    }
    barrier();
    for (uint k = t; k < kBins; k += 256u)
      if (hist[k] != 0u) atomicAdd(bins[k], hist[k]);
    return;
  }
  vec2 m = vec2(3.0e38, -3.0e38);
  if (pass == 0) {
    uint i = gl_GlobalInvocationID.x;
    if (i < count && usable(points[i * stride].w)) m = vec2(points[i * stride].w);
  } else {
    for (uint g = t; g < groups; g += 256u) m = vec2(min(m.x, partial[g].x), max(m.y, partial[g].y));
    for (uint k = t; k < kBins; k += 256u) bins[k] = 0u;
  }
  s[t] = m;
  for (uint d = 128u; d > 0u; d >>= 1) {
    barrier();
    if (t < d) s[t] = vec2(min(s[t].x, s[t + d].x), max(s[t].y, s[t + d].y));
  }
  barrier();
  if (t == 0u) {
    if (pass == 0) partial[gl_WorkGroupID.x] = s[0];
    else range = vec4(s[0], 0.0, 0.0);
  }
}
