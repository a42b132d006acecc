#include "io/export_formats.h"

#include <algorithm>
#include <array>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <utility>

namespace sloshlab {

namespace {

// ---------------------------------------------------------------- text numbers

// The shortest text that reads back as the same number: to_chars, several times faster
// than a stream, which mattered at 60k particles per frame.
// Written in place: appending from a local buffer drew a false -Wrestrict from GCC 12.
template <class T>
void appendNumber(std::string& out, T value) {
  const std::size_t at = out.size();
  out.resize(at + 32);
  const auto [end, ec] = std::to_chars(out.data() + at, out.data() + out.size(), value);
  out.resize(ec == std::errc() ? static_cast<std::size_t>(end - out.data()) : at);
}

void appendTuple(std::string& out, const Vec3& v) {
  for (int k = 0; k < 3; ++k) {
    appendNumber(out, static_cast<float>(v[k]));
    out += k < 2 ? ' ' : '\n';
  }
}

// ---------------------------------------------------------------- VTK XML

// PolyData file version 0.1: cell "offsets" hold each cell's end in "connectivity".
void beginPolyData(std::string& out, double time) {
  out += "<?xml version=\"1.0\"?>\n"
         "<VTKFile type=\"PolyData\" version=\"0.1\" byte_order=\"LittleEndian\">\n<PolyData>\n"
         "<FieldData>\n<DataArray type=\"Float64\" Name=\"TimeValue\" NumberOfTuples=\"1\" format=\"ascii\">";
  appendNumber(out, time);
  out += "</DataArray>\n</FieldData>\n";
}

void endPolyData(std::string& out) { out += "</Piece>\n</PolyData>\n</VTKFile>\n"; }

void beginArray(std::string& out, const char* type, const char* name, int components) {
  out += "<DataArray type=\"";
  out += type;
  out += "\" Name=\"";
  out += name;
  out += "\" NumberOfComponents=\"";
  appendNumber(out, components);
  out += "\" format=\"ascii\">\n";
}

void vectorArray(std::string& out, const char* name, const std::vector<Vec3>& values) {
  beginArray(out, "Float32", name, 3);
  for (const Vec3& v : values) appendTuple(out, v);
  out += "</DataArray>\n";
}

void cellArrays(std::string& out, const std::vector<std::int64_t>& connectivity, const std::vector<std::int64_t>& ends) {
  for (const auto& [name, values] : {std::pair{"connectivity", &connectivity}, std::pair{"offsets", &ends}}) {
    beginArray(out, "Int64", name, 1);
    for (std::int64_t i : *values) {
      appendNumber(out, i);
      out += '\n';
    }
    out += "</DataArray>\n";
  }
}

void pieceHeader(std::string& out, std::size_t points, std::size_t verts, std::size_t lines, std::size_t polys = 0) {
  out += "<Piece NumberOfPoints=\"";
  appendNumber(out, points);
  out += "\" NumberOfVerts=\"";
  appendNumber(out, verts);
  out += "\" NumberOfLines=\"";
  appendNumber(out, lines);
  out += "\" NumberOfStrips=\"0\" NumberOfPolys=\"";
  appendNumber(out, polys);
  out += "\">\n";
}

// A PolyData file of points joined into cells of one kind ("Lines" or "Polys").
std::string polyData(const std::vector<Vec3>& points, const char* kind, const std::vector<std::int64_t>& connectivity,
                     const std::vector<std::int64_t>& ends, double time) {
  const bool lines = std::string(kind) == "Lines";
  std::string out;
  beginPolyData(out, time);
  pieceHeader(out, points.size(), 0, lines ? ends.size() : 0, lines ? 0 : ends.size());
  out += "<Points>\n";
  vectorArray(out, "position", points);
  out += "</Points>\n<";
  out += kind;
  out += ">\n";
  cellArrays(out, connectivity, ends);
  out += "</";
  out += kind;
  out += ">\n";
  endPolyData(out);
  return out;
}

// ---------------------------------------------------------------- binary PLY

void putFloat(std::string& out, double value) {
  const std::uint32_t bits = std::bit_cast<std::uint32_t>(static_cast<float>(value));
  for (int b = 0; b < 4; ++b) out += static_cast<char>((bits >> (8 * b)) & 0xffu);
}

void putInt(std::string& out, std::int32_t value) {
  const auto bits = static_cast<std::uint32_t>(value);
  for (int b = 0; b < 4; ++b) out += static_cast<char>((bits >> (8 * b)) & 0xffu);
}

void plyHeader(std::string& out, long step, double time) {
  out += "ply\nformat binary_little_endian 1.0\ncomment sloshlab step ";
  appendNumber(out, step);
  out += " time ";
  appendNumber(out, time);
  out += "\n";
}

// Water blue at rest, paling towards foam white as the speed in the container grows.
// t = s / (s + 1 m/s) never saturates, and a speed has the same colour in every frame
// (a per-frame range would make a sequence flicker).
void putSpeedColour(std::string& out, float speed) {
  constexpr float kRest[3] = {25.0f, 90.0f, 200.0f}, kFast[3] = {225.0f, 240.0f, 255.0f};
  const float s = std::isfinite(speed) ? std::max(speed, 0.0f) : 0.0f;
  const float t = s / (s + 1.0f);
  for (int k = 0; k < 3; ++k)
    out += static_cast<char>(static_cast<std::uint8_t>(std::lround(kRest[k] + t * (kFast[k] - kRest[k]))));
}

}  // namespace

std::vector<Vec3> containerCorners(const ContainerState& c, int dim, double grow) {
  const Mat3 R = c.pose.rotation();
  std::vector<Vec3> corners;
  for (int i = 0; i < (1 << dim); ++i) {
    Vec3 local(0.0);
    for (int k = 0; k < dim; ++k) local[k] = ((i >> k) & 1 ? 0.5 : -0.5) * c.size[k] + ((i >> k) & 1 ? grow : -grow);
    Vec3 world = c.pose.position + R * local;
    if (dim == 2) world.z = 0.0;
    corners.push_back(world);
  }
  return corners;
}

std::string vtkParticles(const ExportFrame& frame, const std::vector<NamedArray>& scalars) {
  const std::size_t n = frame.x.size();
  std::string out;
  out.reserve(n * (40 + 16 * scalars.size()) + 1024);
  beginPolyData(out, frame.time);
  pieceHeader(out, n, n, 0);
  out += "<PointData Vectors=\"velocity\">\n";
  vectorArray(out, "velocity", frame.v);
  for (const NamedArray& a : scalars) {
    beginArray(out, "Float32", a.name, 1);
    for (float value : *a.values) {
      appendNumber(out, value);
      out += '\n';
    }
    out += "</DataArray>\n";
  }
  out += "</PointData>\n<Points>\n";
  vectorArray(out, "position", frame.x);
  out += "</Points>\n<Verts>\n";
  std::vector<std::int64_t> connectivity(n), ends(n);
  for (std::size_t i = 0; i < n; ++i) {
    connectivity[i] = static_cast<std::int64_t>(i);
    ends[i] = static_cast<std::int64_t>(i + 1);
  }
  cellArrays(out, connectivity, ends);
  out += "</Verts>\n";
  endPolyData(out);
  return out;
}

std::string vtkContainer(const ContainerState& container, int dim, double time) {
  const std::vector<Vec3> corners = containerCorners(container, dim);
  std::vector<std::int64_t> connectivity, ends;
  if (dim == 2) {
    connectivity = {0, 1, 3, 2, 0};  // one closed line, counter-clockwise
    ends = {5};
  } else {
    // The 12 edges join corners that differ in one bit.
    for (int i = 0; i < 8; ++i)
      for (int bit : {1, 2, 4})
        if (!(i & bit)) {
          connectivity.insert(connectivity.end(), {i, i | bit});
          ends.push_back(static_cast<std::int64_t>(connectivity.size()));
        }
  }
  return polyData(corners, "Lines", connectivity, ends, time);
}

std::string vtkTimeSeries(const std::vector<TimeSeriesEntry>& entries) {
  std::string out = "<?xml version=\"1.0\"?>\n"
                    "<VTKFile type=\"Collection\" version=\"0.1\" byte_order=\"LittleEndian\">\n<Collection>\n";
  for (const TimeSeriesEntry& e : entries) {
    out += "<DataSet timestep=\"";
    appendNumber(out, e.time);
    out += "\" group=\"\" part=\"0\" file=\"" + e.file + "\"/>\n";
  }
  out += "</Collection>\n</VTKFile>\n";
  return out;
}

std::string plyParticles(const ExportFrame& frame, long step, const std::vector<float>& speed) {
  const std::size_t n = frame.x.size();
  std::string out;
  out.reserve(27 * n + 512);
  plyHeader(out, step, frame.time);
  out += "element vertex ";
  appendNumber(out, n);
  out += "\nproperty float x\nproperty float y\nproperty float z\n"
         "property float vx\nproperty float vy\nproperty float vz\n"
         "property uchar red\nproperty uchar green\nproperty uchar blue\nend_header\n";
  for (std::size_t i = 0; i < n; ++i) {
    for (int k = 0; k < 3; ++k) putFloat(out, frame.x[i][k]);
    for (int k = 0; k < 3; ++k) putFloat(out, frame.v[i][k]);
    putSpeedColour(out, i < speed.size() ? speed[i] : 0.0f);
  }
  return out;
}

std::string plyContainer(const ContainerState& container, int dim, long step, double time) {
  std::vector<Vec3> vertices = containerCorners(container, dim);
  std::vector<std::array<int, 4>> faces;
  if (dim == 2) {
    // The inner rectangle (0-3) and one grown by a wall's thickness (4-7); a quad joins
    // each inner edge to its outer one, counter-clockwise seen from +z.
    const double wall = 0.02 * std::max(container.size.x, container.size.y);
    const std::vector<Vec3> outer = containerCorners(container, dim, wall);
    vertices.insert(vertices.end(), outer.begin(), outer.end());
    const int loop[4] = {0, 1, 3, 2};
    for (int e = 0; e < 4; ++e) {
      const int a = loop[e], b = loop[(e + 1) % 4];
      faces.push_back({a, a + 4, b + 4, b});
    }
  } else {
    // Counter-clockwise seen from outside: -x, +x, -y, +y, -z, +z.
    faces = {{0, 4, 6, 2}, {1, 3, 7, 5}, {0, 1, 5, 4}, {2, 6, 7, 3}, {0, 2, 3, 1}, {4, 5, 7, 6}};
  }
  std::string out;
  plyHeader(out, step, time);
  out += "element vertex ";
  appendNumber(out, vertices.size());
  out += "\nproperty float x\nproperty float y\nproperty float z\nelement face ";
  appendNumber(out, faces.size());
  out += "\nproperty list uchar int vertex_indices\nend_header\n";
  for (const Vec3& p : vertices)
    for (int k = 0; k < 3; ++k) putFloat(out, p[k]);
  for (const auto& face : faces) {
    out += static_cast<char>(4);
    for (int i : face) putInt(out, i);
  }
  return out;
}

namespace {
// Container-frame points where the container stands (8.1)-(8.2).
void toWorld(std::vector<Vec3>& points, const ContainerState& c, int dim) {
  const Mat3 R = c.pose.rotation();
  Vec3 half = 0.5 * c.size;
  if (dim == 2) half.z = 0.0;
  for (Vec3& p : points) {
    p = c.pose.position + R * (p - half);
    if (dim == 2) p.z = 0.0;
  }
}
}  // namespace

std::vector<Vec3> obstacleTriangles(const std::vector<Obstacle>& obstacles, const ContainerState& c, int dim) {
  std::vector<Vec3> out = obstacleMesh(obstacles, c.size, dim).triangles;
  toWorld(out, c, dim);
  return out;
}

std::vector<Vec3> bodyTriangles(const std::vector<BodyView>& bodies, const ContainerState& c, int dim) {
  std::vector<Vec3> out;
  for (const BodyView& b : bodies) {
    const std::vector<Vec3> mesh = bodyMesh(b, dim).triangles;
    out.insert(out.end(), mesh.begin(), mesh.end());
  }
  toWorld(out, c, dim);
  return out;
}

std::string vtkTriangles(const std::vector<Vec3>& triangles, double time) {
  std::vector<std::int64_t> connectivity(triangles.size()), ends(triangles.size() / 3);
  for (std::size_t i = 0; i < triangles.size(); ++i) connectivity[i] = static_cast<std::int64_t>(i);
  for (std::size_t k = 0; k < ends.size(); ++k) ends[k] = static_cast<std::int64_t>(3 * (k + 1));
  return polyData(triangles, "Polys", connectivity, ends, time);
}

std::string plyTriangles(const std::vector<Vec3>& triangles, long step, double time) {
  std::string out;
  plyHeader(out, step, time);
  out += "element vertex ";
  appendNumber(out, triangles.size());
  out += "\nproperty float x\nproperty float y\nproperty float z\nelement face ";
  appendNumber(out, triangles.size() / 3);
  out += "\nproperty list uchar int vertex_indices\nend_header\n";
  for (const Vec3& p : triangles)
    for (int k = 0; k < 3; ++k) putFloat(out, p[k]);
  for (std::size_t k = 0; k + 2 < triangles.size(); k += 3) {
    out += static_cast<char>(3);
    for (std::size_t i = k; i < k + 3; ++i) putInt(out, static_cast<int>(i));
  }
  return out;
}

void appendShortest(std::string& out, double value) { appendNumber(out, value); }

}  // namespace sloshlab
