#version 410 core
// Particles as point sprites whose screen size matches their physical radius.
layout(location = 0) in vec3 aPosition;  // world (or container) frame, metres
layout(location = 1) in float aValue;    // the colour field

uniform mat4 uView;
uniform mat4 uProjection;
uniform float uRadius;          // metres
uniform float uViewportHeight;  // pixels
uniform vec2 uRange;            // colour field range mapped to [0, 1]
uniform sampler2D uColormap;    // 256 x 1 RGB
uniform int uSolid;             // 1: one colour for every particle
uniform vec3 uSolidColour;

out vec3 vColour;
out vec3 vViewCentre;
out float vPointSize;

void main() {
  vec4 view = uView * vec4(aPosition, 1.0);
  vViewCentre = view.xyz;
  gl_Position = uProjection * view;
  // Diameter in pixels: 2 r * (H / 2) * P[1][1] / w (w = 1 for an orthographic view).
  // Sprites of a few pixels are drawn as squares (particles.frag), a pixel wider than
  // their diameter rounded up: a lattice of them then covers the liquid without the
  // gaps and moire that rounding 2.9 px sprites on a 2.9 px lattice leaves.
  float size = uProjection[1][1] * uRadius * uViewportHeight / gl_Position.w;
  gl_PointSize = size < 4.5 ? ceil(size) + 1.0 : size;
  vPointSize = size;
  float t = clamp((aValue - uRange.x) / max(uRange.y - uRange.x, 1e-20), 0.0, 1.0);
  vColour = uSolid == 1 ? uSolidColour : texture(uColormap, vec2(t, 0.5)).rgb;
}
