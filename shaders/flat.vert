#version 410 core
// Container outlines, glass faces, arrows and grids: positions in the frame given
// by uModel, one colour per draw.
layout(location = 0) in vec3 aPosition;
uniform mat4 uModel;
uniform mat4 uView;
uniform mat4 uProjection;
void main() { gl_Position = uProjection * uView * uModel * vec4(aPosition, 1.0); }
