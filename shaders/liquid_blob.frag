#version 410 core
// The 2D liquid's field (render/liquid_renderer.h): each particle adds a smooth bump
// w = (1 - q^2)^3 within its splat radius R (q = distance / R), 1 at its centre, in
// alpha, and its colour field's tint weighted by w in rgb. The surface is the level
// set w = uIso of the sum (liquid_shade2d.frag).
in vec3 vColour;
in vec3 vViewCentre;
in float vPointSize;

out vec4 field;

void main() {
  vec2 p = gl_PointCoord * 2.0 - 1.0;
  float q2 = dot(p, p);
  if (q2 > 1.0) discard;
  float s = 1.0 - q2;
  float w = s * s * s;
  field = vec4(vColour * w, w);
}
