#!/usr/bin/python3
"""Reads one run's VTK and PLY exports with the outside tools' own readers and checks
them against the CSV export of the same run (tests/cli/test_export_formats.cpp).

    check_export.py CSV_DIR VTK_DIR PLY_DIR --dim D --steps 0,10,20 [--fields density,pressure]

- VTK: vtk.vtkXMLPolyDataReader (python3-vtk9) reads every particles_<step>.vtp and
  container_<step>.vtp; particles.pvd and container.pvd list every frame at its time.
- PLY: meshio.read (python3-meshio) reads every particles_<step>.ply and
  container_<step>.ply.
- Against the CSV: point counts, positions and velocities (float32: 1e-5 relative),
  the container's corners from container.csv; 2D files have z = 0 and vz = 0.
Prints one line per problem and exits 1, or prints a summary and exits 0.
"""
import argparse
import csv
import math
import os
import sys
import xml.etree.ElementTree as ElementTree

try:
    import numpy as np
    import meshio
    import vtk
    from vtk.util.numpy_support import vtk_to_numpy
except ImportError as error:
    print(f"check_export: cannot import {error.name!r}: install python3-vtk9 and python3-meshio "
          "(third_party/install_deps.sh does)")
    sys.exit(1)

RTOL, ATOL = 1e-5, 1e-9  # float32 against the CSV's 9 digits

problems = []


def check(ok, message):
    if not ok:
        problems.append(message)
    return ok


def close(name, got, want):
    got, want = np.asarray(got, dtype=float), np.asarray(want, dtype=float)
    if not check(got.shape == want.shape, f"{name}: shape {got.shape}, expected {want.shape}"):
        return
    if not np.allclose(got, want, rtol=RTOL, atol=ATOL):
        worst = np.max(np.abs(got - want) / (np.abs(want) * RTOL + ATOL))
        check(False, f"{name}: differs from the CSV export (worst {worst:.3g} times the tolerance)")


def read_csv(path):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    return rows[0], np.array([[float(x) for x in row] for row in rows[1:]])


def csv_particles(directory, step, dim):
    header, table = read_csv(os.path.join(directory, f"particles_{step}.csv"))
    x = np.zeros((len(table), 3))
    v = np.zeros((len(table), 3))
    x[:, :dim] = table[:, :dim]
    v[:, :dim] = table[:, dim:2 * dim]
    return x, v


def turn(axis, angle):
    """The rotation by angle about a coordinate axis (0: x, 1: y, 2: z)."""
    c, s = math.cos(angle), math.sin(angle)
    i, j = [k for k in range(3) if k != axis]
    m = np.eye(3)
    m[i, i], m[i, j], m[j, i], m[j, j] = c, -s, s, c
    if axis == 1:  # about y the order of (z, x) is the right-handed one
        m[i, j], m[j, i] = s, -s
    return m


def csv_containers(directory, dim):
    """{step: (time, corners)} from container.csv: the box about its centre, turned by
    R = Ry(angle_y) Rx(angle_x) Rz(angle) (angle_x and angle_y in 3D only)."""
    header, table = read_csv(os.path.join(directory, "container.csv"))
    col = {name: i for i, name in enumerate(header)}
    out = {}
    for row in table:
        centre = np.array([row[col["x"]], row[col["y"]], row[col["z"]] if dim == 3 else 0.0])
        size = [row[col["size_x"]], row[col["size_y"]], row[col["size_z"]] if dim == 3 else 0.0]
        rotation = turn(2, row[col["angle"]])
        if dim == 3:
            rotation = turn(1, row[col["angle_y"]]) @ turn(0, row[col["angle_x"]]) @ rotation
        corners = []
        for i in range(1 << dim):
            local = [(0.5 if (i >> k) & 1 else -0.5) * size[k] if k < dim else 0.0 for k in range(3)]
            corners.append(centre + rotation @ np.array(local))
        out[int(row[col["step"]])] = (row[col["time"]], np.array(corners))
    return out


def has_corners(name, points, corners):
    """Every expected corner is one of the points (the files may order them as they like)."""
    points = np.asarray(points, dtype=float)
    for corner in corners:
        if not check(np.min(np.max(np.abs(points - corner), axis=1)) < 1e-6, f"{name}: no point at corner {corner}"):
            return


def check_2d(name, x, v, dim):
    if dim == 2:
        check(np.all(x[:, 2] == 0.0), f"{name}: a 2D run has z != 0")
        check(np.all(v[:, 2] == 0.0), f"{name}: a 2D run has vz != 0")


def read_vtp(path):
    reader = vtk.vtkXMLPolyDataReader()
    reader.SetFileName(path)
    reader.Update()
    check(reader.GetErrorCode() == 0, f"{path}: VTK reader error {reader.GetErrorCode()}")
    return reader.GetOutput()


def check_pvd(directory, index, prefix, steps, times):
    root = ElementTree.parse(os.path.join(directory, index)).getroot()
    check(root.get("type") == "Collection", f"{index}: not a VTK Collection")
    sets = root.findall("./Collection/DataSet")
    check([d.get("file") for d in sets] == [f"{prefix}_{s}.vtp" for s in steps],
          f"{index}: lists {[d.get('file') for d in sets]}, expected every frame")
    for d, step in zip(sets, steps):
        check(math.isclose(float(d.get("timestep")), times[step], rel_tol=1e-9, abs_tol=1e-12),
              f"{index}: step {step} at t = {d.get('timestep')}, container.csv says {times[step]}")


def check_vtk(directory, csv_dir, dim, steps, fields, containers):
    times = {step: containers[step][0] for step in steps}
    check_pvd(directory, "particles.pvd", "particles", steps, times)
    check_pvd(directory, "container.pvd", "container", steps, times)
    for step in steps:
        x, v = csv_particles(csv_dir, step, dim)
        name = f"vtk particles_{step}.vtp"
        data = read_vtp(os.path.join(directory, f"particles_{step}.vtp"))
        if not check(data.GetNumberOfPoints() == len(x), f"{name}: {data.GetNumberOfPoints()} points, CSV {len(x)}"):
            continue
        check(data.GetNumberOfVerts() == len(x), f"{name}: {data.GetNumberOfVerts()} vertex cells")
        points = vtk_to_numpy(data.GetPoints().GetData())
        close(f"{name} positions", points, x)
        arrays = data.GetPointData()
        velocity = arrays.GetArray("velocity")
        if check(velocity is not None and velocity.GetNumberOfComponents() == 3, f"{name}: no 3-component velocity"):
            close(f"{name} velocity", vtk_to_numpy(velocity), v)
            check_2d(name, points, vtk_to_numpy(velocity), dim)
        # The SPH solvers compute density and pressure in their first step: step 0 may lack them.
        for field in fields if step > 0 else []:
            array = arrays.GetArray(field)
            if check(array is not None, f"{name}: no point array '{field}'"):
                values = vtk_to_numpy(array)
                check(len(values) == len(x) and np.all(np.isfinite(values)), f"{name}: '{field}' has bad values")
        check(arrays.GetNumberOfArrays() == 1 + (len(fields) if step > 0 else 0) or step == 0,
              f"{name}: arrays {[arrays.GetArrayName(i) for i in range(arrays.GetNumberOfArrays())]}")

        name = f"vtk container_{step}.vtp"
        box = read_vtp(os.path.join(directory, f"container_{step}.vtp"))
        corners = containers[step][1]
        if check(box.GetNumberOfPoints() == len(corners), f"{name}: {box.GetNumberOfPoints()} points"):
            has_corners(name, vtk_to_numpy(box.GetPoints().GetData()), corners)
        check(box.GetNumberOfLines() == (1 if dim == 2 else 12), f"{name}: {box.GetNumberOfLines()} lines")
        want = [f(corners[:, k]) for k in range(3) for f in (np.min, np.max)]
        check(np.allclose(box.GetBounds(), want, atol=1e-6), f"{name}: bounds {box.GetBounds()}, expected {want}")


def check_ply(directory, csv_dir, dim, steps, containers):
    for step in steps:
        x, v = csv_particles(csv_dir, step, dim)
        path = os.path.join(directory, f"particles_{step}.ply")
        name = f"ply particles_{step}.ply"
        with open(path, "rb") as f:
            check(b"format binary_little_endian 1.0" in f.read(200), f"{name}: not binary little-endian")
        mesh = meshio.read(path)
        if not check(mesh.points.shape == (len(x), 3), f"{name}: points {mesh.points.shape}, CSV {len(x)}"):
            continue
        close(f"{name} positions", mesh.points, x)
        data = mesh.point_data
        if check(all(k in data for k in ("vx", "vy", "vz")), f"{name}: no vx vy vz ({list(data)})"):
            velocity = np.column_stack([data["vx"], data["vy"], data["vz"]])
            close(f"{name} velocity", velocity, v)
            check_2d(name, mesh.points, velocity, dim)
        # meshio 7.0 reads a binary uchar as int8 (its own table maps "uchar" to "i1"):
        # the bytes are right, the view is not.
        colours = [data[c].view(np.uint8) for c in ("red", "green", "blue") if c in data and data[c].itemsize == 1]
        if check(len(colours) == 3, f"{name}: no 1-byte red green blue ({list(data)})"):
            check(np.all(colours[2] >= colours[0]), f"{name}: a colour is not water blue to foam white")

        name = f"ply container_{step}.ply"
        box = meshio.read(os.path.join(directory, f"container_{step}.ply"))
        quads = sum(len(block.data) for block in box.cells if block.type == "quad")
        check(quads == (4 if dim == 2 else 6), f"{name}: {quads} quads")
        corners = containers[step][1]
        has_corners(name, box.points, corners)
        if dim == 3:
            check(np.allclose(box.points.min(axis=0), corners.min(axis=0), atol=1e-6) and
                  np.allclose(box.points.max(axis=0), corners.max(axis=0), atol=1e-6), f"{name}: wrong bounds")
        else:
            check(np.all(box.points[:, 2] == 0.0), f"{name}: a 2D container has z != 0")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("csv_dir")
    parser.add_argument("vtk_dir")
    parser.add_argument("ply_dir")
    parser.add_argument("--dim", type=int, required=True)
    parser.add_argument("--steps", required=True)
    parser.add_argument("--fields", default="")
    args = parser.parse_args()
    steps = [int(s) for s in args.steps.split(",")]
    fields = [f for f in args.fields.split(",") if f]
    containers = csv_containers(args.csv_dir, args.dim)
    check(sorted(containers) == steps, f"container.csv has steps {sorted(containers)}, expected {steps}")
    if not problems:
        check_vtk(args.vtk_dir, args.csv_dir, args.dim, steps, fields, containers)
        check_ply(args.ply_dir, args.csv_dir, args.dim, steps, containers)
    for p in problems:
        print("FAIL:", p)
    if problems:
        return 1
    print(f"check_export: {len(steps)} frames of {args.dim}D read by VTK {vtk.vtkVersion.GetVTKVersion()} and "
          f"meshio {meshio.__version__} agree with the CSV export")
    return 0


if __name__ == "__main__":
    sys.exit(main())
