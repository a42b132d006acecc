#version 410 core
// The 3D liquid's surface (render/liquid_renderer.h): the smoothed depth gives the
// surface point and, from its neighbours, the normal; the thickness gives Beer-Lambert
// absorption, light = exp(-sigma t (1 - tint)), so that thin sheets let the background
// through and deep liquid takes the tint of its colour field; Schlick's Fresnel mixes
// in a sky reflection, and a Blinn-Phong highlight sits on top. The surface's depth is
// written, so that the container's lines in front of the liquid stay in front.
in vec2 vUv;

uniform sampler2D uDepth;       // smoothed, distance along -z (m); 0: no liquid
uniform sampler2D uThickness;   // rgb: tint times chord, a: thickness (m)
uniform sampler2D uBackground;  // what was drawn before the liquid
uniform mat4 uProjection;
uniform vec2 uTexel;            // one texel of the depth and thickness textures
uniform float uAbsorption;      // sigma (1/m)
uniform float uRefraction;      // background offset per unit of normal and thickness

out vec4 colour;

vec3 viewPosition(vec2 uv, float depth) {
  vec2 ndc = uv * 2.0 - 1.0;
  float z = -depth;
  float w = uProjection[2][3] * z + uProjection[3][3];
  float x = (ndc.x * w - uProjection[2][0] * z - uProjection[3][0]) / uProjection[0][0];
  float y = (ndc.y * w - uProjection[2][1] * z - uProjection[3][1]) / uProjection[1][1];
  return vec3(x, y, z);
}

void main() {
  float depth = texture(uDepth, vUv).r;
  if (depth <= 0.0) discard;
  vec3 p = viewPosition(vUv, depth);
  // Each derivative from the nearer neighbour: no normal bends across a silhouette.
  vec3 dx = vec3(0.0), dy = vec3(0.0);
  {
    float r = texture(uDepth, vUv + vec2(uTexel.x, 0.0)).r, l = texture(uDepth, vUv - vec2(uTexel.x, 0.0)).r;
    vec3 pr = r > 0.0 ? viewPosition(vUv + vec2(uTexel.x, 0.0), r) - p : vec3(1e9);
    vec3 pl = l > 0.0 ? p - viewPosition(vUv - vec2(uTexel.x, 0.0), l) : vec3(1e9);
    dx = abs(pr.z) < abs(pl.z) ? pr : pl;
    float u = texture(uDepth, vUv + vec2(0.0, uTexel.y)).r, d = texture(uDepth, vUv - vec2(0.0, uTexel.y)).r;
    vec3 pu = u > 0.0 ? viewPosition(vUv + vec2(0.0, uTexel.y), u) - p : vec3(1e9);
    vec3 pd = d > 0.0 ? p - viewPosition(vUv - vec2(0.0, uTexel.y), d) : vec3(1e9);
    dy = abs(pu.z) < abs(pd.z) ? pu : pd;
  }
  vec3 n = (dx.x > 1e8 || dy.x > 1e8) ? vec3(0.0, 0.0, 1.0) : normalize(cross(dx, dy));
  if (n.z < 0.0) n = -n;
  vec4 tint4 = texture(uThickness, vUv);
  float thickness = max(tint4.a, 0.0);
  vec3 tint = tint4.a > 1e-6 ? clamp(tint4.rgb / tint4.a, 0.0, 1.0) : vec3(0.2, 0.5, 0.9);
  vec3 v = normalize(-p);
  vec3 light = normalize(vec3(-0.35, 0.55, 1.0));
  // Light through the liquid: the background bent by the normal, absorbed by thickness.
  vec2 bent = vUv + n.xy * uRefraction * min(thickness, 0.2);
  vec3 behind = texture(uBackground, bent).rgb;
  float opacity = 1.0 - exp(-uAbsorption * thickness);
  vec3 transmitted = behind * exp(-uAbsorption * thickness * (1.0 - tint));
  vec3 body = tint * (0.45 + 0.55 * max(dot(n, light), 0.0));
  vec3 refracted = mix(transmitted, body, opacity);
  float fresnel = 0.02 + 0.98 * pow(1.0 - max(dot(n, v), 0.0), 5.0);
  vec3 sky = mix(vec3(0.35, 0.42, 0.5), vec3(0.75, 0.85, 0.95), clamp(n.y * 0.5 + 0.5, 0.0, 1.0));
  vec3 h = normalize(light + v);
  float specular = pow(max(dot(n, h), 0.0), 80.0);
  colour = vec4(mix(refracted, sky, fresnel * 0.6) + vec3(0.6 * specular), 1.0);
  vec4 clip = uProjection * vec4(p, 1.0);
  gl_FragDepth = 0.5 * (clip.z / clip.w) + 0.5;
}
