#version 410 core
// The liquid's thickness pass (render/liquid_renderer.h), added up over every particle
// along the ray: each particle as a sphere of twice its radius R = 2 r holding its own
// volume, so that a lattice's chords blend into an even sheet: the chord
// 2 R sqrt(1 - q^2) (r / R)^3 (m) in alpha, and the colour field's tint weighted by it
// in rgb. uRadius is R.
in vec3 vColour;
in vec3 vViewCentre;
in float vPointSize;

uniform float uRadius;

out vec4 thickness;

void main() {
  vec2 p = gl_PointCoord * 2.0 - 1.0;
  float r2 = dot(p, p);
  if (r2 > 1.0) discard;
  float chord = 0.25 * uRadius * sqrt(1.0 - r2);  // 2 R sqrt(1 - q^2) / 8
  thickness = vec4(vColour * chord, chord);
}
