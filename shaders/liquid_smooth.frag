#version 410 core
// One direction of the separable bilateral filter over the liquid's depth
// (render/liquid_renderer.h): neighbours weighted by a Gaussian in pixels, whose width
// is 2.5 particle radii on screen, and by a Gaussian in depth difference, whose width
// is three particle radii, so that the spheres' bumps smooth out and the liquid's
// silhouette and separate sheets stay sharp. Background pixels (0) are left alone.
in vec2 vUv;

uniform sampler2D uDepth;
uniform vec2 uStep;            // one texel along the filter's direction
uniform float uPixelsPerMetre; // projected size of a metre at w = 1 (P11 H / 2)
uniform float uRadius;         // particle radius (m)
uniform int uPerspective;      // 1: w is the depth; 0: orthographic, w = 1

out float smoothed;

void main() {
  float centre = texture(uDepth, vUv).r;
  if (centre <= 0.0) {
    smoothed = 0.0;
    return;
  }
  float w = uPerspective == 1 ? centre : 1.0;
  float radiusPx = clamp(uPixelsPerMetre * uRadius / w, 0.5, 16.0);
  // Out to 2 sigma, sigma 2.5 particle radii, in at most 10 taps a side.
  float sigma = 2.5 * radiusPx, reach = 2.0 * sigma;
  int taps = int(min(ceil(reach), 10.0));
  float stride = max(reach / float(taps), 1.0);
  float sigma2 = sigma * sigma;
  float range2 = 9.0 * uRadius * uRadius;
  float sum = centre, weights = 1.0;
  for (int k = -taps; k <= taps; ++k) {
    if (k == 0) continue;
    float offset = float(k) * stride;
    float d = texture(uDepth, vUv + offset * uStep).r;
    if (d <= 0.0) continue;
    float dz = d - centre;
    float weight = exp(-offset * offset / (2.0 * sigma2) - dz * dz / (2.0 * range2));
    sum += d * weight;
    weights += weight;
  }
  smoothed = sum / weights;
}
