// Exclusive prefix sum, level 2: adds each block's offset (the scanned block totals).
layout(local_size_x = 256) in;
layout(std430, binding = 1) buffer Prefix { uint prefix[]; };
layout(std430, binding = 2) readonly buffer Offsets { uint blockOffset[]; };
uniform uint count;

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i < count) prefix[i] += blockOffset[i / 512u];
}
