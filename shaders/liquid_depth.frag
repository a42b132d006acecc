#version 410 core
// The liquid's depth pass (render/liquid_renderer.h): each particle a sphere, the nearest
// surface kept by the depth test; written as its distance along -z in view space (m).
in vec3 vColour;
in vec3 vViewCentre;
in float vPointSize;

uniform mat4 uProjection;
uniform float uRadius;

out float depthOut;

void main() {
  vec2 p = gl_PointCoord * 2.0 - 1.0;
  p.y = -p.y;
  float r2 = dot(p, p);
  if (r2 > 1.0) discard;
  vec3 surface = vViewCentre + vec3(p, sqrt(1.0 - r2)) * uRadius;
  vec4 clip = uProjection * vec4(surface, 1.0);
  gl_FragDepth = 0.5 * (clip.z / clip.w) + 0.5;
  depthOut = -surface.z;
}
