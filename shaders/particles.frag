#version 410 core
// A sphere impostor: normal from the sprite coordinate, Blinn-Phong lighting, and
// the depth of the sphere's surface so that 3D particles intersect correctly.
in vec3 vColour;
in vec3 vViewCentre;
in float vPointSize;

uniform mat4 uProjection;
uniform float uRadius;

out vec4 fragColour;

void main() {
  // A sprite of a few pixels has no room for a sphere: its sprite coordinate would only
  // say where its centre falls in the pixel, and a lattice of them shades into moire. It
  // is a square instead (particles.vert widens it), and squares tile.
  if (vPointSize < 4.5) {
    gl_FragDepth = gl_FragCoord.z;
    fragColour = vec4(vColour * 0.9, 1.0);
    return;
  }
  vec2 p = gl_PointCoord * 2.0 - 1.0;
  p.y = -p.y;
  float r2 = dot(p, p);
  if (r2 > 1.0) discard;
  vec3 n = vec3(p, sqrt(1.0 - r2));
  vec4 clip = uProjection * vec4(vViewCentre + n * uRadius, 1.0);
  gl_FragDepth = 0.5 * (clip.z / clip.w) + 0.5;
  vec3 light = normalize(vec3(-0.35, 0.55, 1.0));
  float diffuse = max(dot(n, light), 0.0);
  float specular = pow(max(dot(n, normalize(light + vec3(0.0, 0.0, 1.0))), 0.0), 48.0);
  fragColour = vec4(vColour * (0.5 + 0.5 * diffuse) + vec3(0.2 * specular), 1.0);
}
