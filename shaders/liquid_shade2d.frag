#version 410 core
// The 2D liquid (render/liquid_renderer.h): the level set field = uIso of the particles'
// summed bumps (liquid_blob.frag) is the surface, its edge anti-aliased over a band of the
// field; inside, the colour field's tint, lit through a normal from the field's gradient
// so that the free surface gets a rim of light and a highlight, and a darker line along
// the edge. Nothing outside the container's inside.
in vec2 vUv;

uniform sampler2D uField;  // rgb: tint times weight, a: summed weight
uniform vec2 uTexel;
uniform float uIso;
uniform mat4 uLocalFromNdc;  // screen -> the container's frame
uniform vec2 uSize;          // the container's inside, [0, uSize] (0: no clip)

out vec4 colour;

void main() {
  if (uSize.x > 0.0) {
    vec2 local = (uLocalFromNdc * vec4(vUv * 2.0 - 1.0, 0.0, 1.0)).xy;
    if (any(lessThan(local, vec2(0.0))) || any(greaterThan(local, uSize))) discard;
  }
  vec4 f = texture(uField, vUv);
  if (f.a < 0.8 * uIso) discard;
  float alpha = smoothstep(0.85 * uIso, 1.05 * uIso, f.a);
  vec3 tint = clamp(f.rgb / f.a, 0.0, 1.0);
  float gx = texture(uField, vUv + vec2(uTexel.x, 0.0)).a - texture(uField, vUv - vec2(uTexel.x, 0.0)).a;
  float gy = texture(uField, vUv + vec2(0.0, uTexel.y)).a - texture(uField, vUv - vec2(0.0, uTexel.y)).a;
  // The field's slope reads as height near the edge; inside, where the lattice of bumps
  // ripples the field, the liquid is flat.
  float band = 1.0 - smoothstep(uIso, 2.5 * uIso, f.a);
  vec3 n = normalize(vec3(-gx * band, -gy * band, 0.6 * uIso));
  vec3 light = normalize(vec3(-0.35, 0.55, 1.0));
  float diffuse = max(dot(n, light), 0.0);
  float specular = pow(max(dot(n, normalize(light + vec3(0.0, 0.0, 1.0))), 0.0), 40.0);
  float edge = 1.0 - smoothstep(uIso, 1.6 * uIso, f.a);
  vec3 body = tint * (0.62 + 0.38 * diffuse);
  vec3 lit = mix(body, tint * 0.55, 0.6 * edge) + vec3(0.35 * specular);
  colour = vec4(lit, alpha);
}
