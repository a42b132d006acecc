// One frame in the formats outside tools read: VTK XML PolyData, which ParaView opens
// with its .pvd time-series index, and binary little-endian PLY, which Blender
// imports. Each writer returns the whole file; ParticleExporter (export.h) writes it
// under a temporary name and renames it.
//
// Precision: positions, velocities and fields are float32 in both formats. VTK's
// ascii numbers are the shortest text that reads back to the same float32
// (std::to_chars), so nothing is lost beyond the float32 rounding (6e-8 relative).
#pragma once

#include "sloshlab/bodies.h"
#include "sloshlab/container.h"
#include "sloshlab/solids.h"

#include <string>
#include <vector>

namespace sloshlab {

// World-frame particles of one frame (2D: z = 0 and vz = 0).
struct ExportFrame {
  int dim;
  double time;
  const std::vector<Vec3>& x;
  const std::vector<Vec3>& v;
};

// The shortest text that reads back as the same double (std::to_chars), appended: the
// CSV particle files' numbers, so that a script reading them gets the engine's values
// bit for bit.
void appendShortest(std::string& out, double value);

// A per-particle scalar point array (density, pressure).
struct NamedArray {
  const char* name;
  const std::vector<float>* values;
};

// One DataSet of a .pvd collection.
struct TimeSeriesEntry {
  double time;
  std::string file;  // relative to the .pvd's directory
};

// Points with one vertex cell each, the point array "velocity" and the scalars.
std::string vtkParticles(const ExportFrame& frame, const std::vector<NamedArray>& scalars);
// The box's outline: a closed line through 4 corners (2D) or 12 edge lines (3D).
std::string vtkContainer(const ContainerState& container, int dim, double time);
std::string vtkTimeSeries(const std::vector<TimeSeriesEntry>& entries);

// Vertices x y z vx vy vz (float) red green blue (uchar), coloured by `speed`.
std::string plyParticles(const ExportFrame& frame, long step, const std::vector<float>& speed);
// The walls as quads: 6 faces of the box (3D), or in 2D a flat frame of 4 quads
// around the rectangle, outside it, so that it never covers the liquid.
std::string plyContainer(const ContainerState& container, int dim, long step, double time);
// The obstacles' surface (sloshlab/solids.h, ObstacleMesh) where the container stands:
// world-frame triangles, three points each; and as a VTK PolyData or binary PLY mesh.
std::vector<Vec3> obstacleTriangles(const std::vector<Obstacle>& obstacles, const ContainerState& container, int dim);
// The floating bodies' surfaces (sloshlab/bodies.h, bodyMesh) where they are now, likewise.
std::vector<Vec3> bodyTriangles(const std::vector<BodyView>& bodies, const ContainerState& container, int dim);
std::string vtkTriangles(const std::vector<Vec3>& triangles, double time);
std::string plyTriangles(const std::vector<Vec3>& triangles, long step, double time);

// The container's inner corners in the world frame, or with `grow` > 0 those of the
// box grown by that much on every side: 4 (2D, z = 0) or 8 (3D); bit k of the index
// picks the upper side on axis k.
std::vector<Vec3> containerCorners(const ContainerState& container, int dim, double grow = 0.0);

}  // namespace sloshlab
