// The bad-input corpus, through the real executable: every case must exit with status
// 2, print exactly one line "sloshlab: error: ..." on stderr naming the problem (the
// file, key or option), print nothing on stdout, and create or change no file.
//
// Each case runs in a fresh directory holding the same fixture (a good scene and motion
// file, a directory, a FIFO, symbolic and hard links, export folders) plus the case's own
// file, from that directory, so that a stray relative output would show too. The whole
// tree is snapshotted (kind, size, time, content, link target) before and after.
#include "support/test_support.h"

#include <gtest/gtest.h>

#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace sloshlab::test {
namespace {

namespace fs = std::filesystem;

struct BadInput {
  const char* args;    // the command line after --headless; {d} is the case's directory
  const char* expect;  // what the error line must name
  const char* file = nullptr;  // the case's own file, written to {d}/<file> ...
  const char* text = "";       // ... with this content
};

// A good scene's members; SCENE_WITH adds one more (a bad one, or one that overrides).
#define GOOD_SCENE_MEMBERS \
  R"("spacing": 0.05, "container": {"size": [1, 1, 0.2]}, "fluid": [{"box": {"min": [0, 0], "max": [1, 0.3]}}])"
#define SCENE_WITH(member) "{" GOOD_SCENE_MEMBERS ", " member "}"
// A scene whose fluid list is `blocks`.
#define FLUID(blocks) R"({"container": {"size": [1, 1, 0.2]}, "fluid": [)" blocks "]}"

const char* const kScene = "{" GOOD_SCENE_MEMBERS "}";
const char* const kMotion = "t,x,y,angle\n0,0,0,0\n1,0.1,0,0\n";

const BadInput kCorpus[] = {
    // ------------------------------------------------ probes (--probe, --probes, --probe-rate)
    {"--probe gauge:x=2 --probes {d}/p.csv --steps 1", "x = 2 m lies outside the container"},
    {"--probe sensor:x=-0.1,y=0.1 --probes {d}/p.csv --steps 1", "lies outside the container"},
    {"--probe sensor:x=0.1,y=0.5 --probes {d}/p.csv --steps 1", "y = 0.5 m lies outside the container"},
    {"--probe sensor:x=0,y=0.1,r=0 --probes {d}/p.csv --steps 1", "the radius r must be positive"},
    {"--probe sensor:x=0,y=0.1,r=-1 --probes {d}/p.csv --steps 1", "the radius r must be positive"},
    {"--probe sensor:x=0,y=0.1,r=5 --probes {d}/p.csv --steps 1", "exceeds half the container"},
    {"--probe gauge:x=0.1 --probes {d}/p.csv --probe-rate 0 --steps 1", "--probe-rate"},
    {"--probe gauge:x=0.1 --probes {d}/p.csv --probe-rate -5 --steps 1", "--probe-rate"},
    {"--probe gauge:x=0.1 --probes {d}/p.csv --probe-rate nan --steps 1", "--probe-rate"},
    {"--probe wave:x=0.1 --probes {d}/p.csv --steps 1", "a probe is gauge:x=X or sensor"},
    {"--probe gauge:y=0.1 --probes {d}/p.csv --steps 1", "unknown key 'y' (a gauge takes x and z)"},
    {"--probe sensor:y=0.1 --probes {d}/p.csv --steps 1", "needs x="},
    {"--probe sensor:x=0.1 --probes {d}/p.csv --steps 1", "a sensor needs y="},
    {"--probe gauge:x=0.1,z=0.1 --probes {d}/p.csv --steps 1", "z is for 3D runs"},
    {"--probe gauge:x=abc --probes {d}/p.csv --steps 1", "'x' needs a finite number"},
    {"--probe gauge:x=nan --probes {d}/p.csv --steps 1", "'x' needs a finite number"},
    {"--probe gauge:x=0.1,colour=2 --probes {d}/p.csv --steps 1", "unknown key 'colour'"},
    {"--probe gauge:x=0.1 --steps 1", "--probes"},
    {"--probes {d}/p.csv --steps 1", "--probe"},
    {"--probe gauge:x=0.1 --probes {d}/dir.json --steps 1", "dir.json"},
    {"--probe gauge:x=0.1 --probes {d}/p.csv --experiment tilt", "excludes"},
    {"--scene {d}/case.json --steps 1", "probes[0]: --probe 'wave:x=0.1'", "case.json", SCENE_WITH(R"("probes": ["wave:x=0.1"])")},
    {"--scene {d}/case.json --steps 1", "probes: expected a list", "case.json", SCENE_WITH(R"("probes": "gauge:x=0.1")")},
    {"--scene {d}/case.json --steps 1", "probes[0]: expected a string", "case.json", SCENE_WITH(R"("probes": [0.1])")},
    {"--scene {d}/case.json --probes {d}/p.csv --steps 1", "x = 2 m lies outside the container", "case.json",
     SCENE_WITH(R"("probes": ["gauge:x=2"])")},
    // ------------------------------------------------ scene files: JSON and types
    {"--scene {d}/case.json --steps 1", "invalid JSON", "case.json", R"({"container": )"},
    {"--scene {d}/case.json --steps 1", "invalid JSON", "case.json", R"({"spacing": 0.05,})"},
    {"--scene {d}/case.json --steps 1", "invalid JSON", "case.json", ""},
    {"--scene {d}/case.json --steps 1", "invalid JSON", "case.json", SCENE_WITH(R"("duration": NaN)")},
    {"--scene {d}/case.json --steps 1", "expected an object", "case.json", "[1, 2]"},
    {"--scene {d}/case.json --steps 1", "unknown key 'colour'", "case.json", SCENE_WITH(R"("colour": "blue")")},
    {"--scene {d}/case.json --steps 1", "container: unknown key 'colour'", "case.json",
     R"({"container": {"size": [1, 1, 1], "colour": 1}, "fluid": [{"box": {"min": [0, 0], "max": [1, 0.3]}}]})"},
    {"--scene {d}/case.json --steps 1", "fluid[0]: unknown key 'shape'", "case.json",
     FLUID(R"({"shape": "box", "box": {"min": [0, 0], "max": [1, 0.3]}})")},
    {"--scene {d}/case.json --steps 1", "'spacing' must be a number", "case.json",
     R"({"spacing": "0.05", "container": {"size": [1, 1, 1]}, "fluid": [{"box": {"min": [0, 0], "max": [1, 0.3]}}]})"},
    {"--scene {d}/case.json --steps 1", "'name' must be a string", "case.json", SCENE_WITH(R"("name": 7)")},
    {"--scene {d}/case.json --steps 1", "'gravity' must hold numbers", "case.json",
     SCENE_WITH(R"("gravity": ["0", "-9.81"])")},
    {"--scene {d}/case.json --steps 1", "'size' must be [x, y, z]", "case.json",
     R"({"container": {"size": [1, 1]}, "fluid": [{"box": {"min": [0, 0], "max": [1, 0.3]}}]})"},
    {"--scene {d}/case.json --steps 1", "'size' must lie in (0, 1000]", "case.json",
     R"({"container": {"size": [1, -1, 1]}, "fluid": [{"box": {"min": [0, 0], "max": [1, 0.3]}}]})"},
    {"--scene {d}/case.json --steps 1", "missing 'container'", "case.json",
     R"({"fluid": [{"box": {"min": [0, 0], "max": [1, 0.3]}}]})"},
    {"--scene {d}/case.json --steps 1", "'fluid' must be a non-empty list", "case.json",
     R"({"container": {"size": [1, 1, 1]}, "fluid": {}})"},
    {"--scene {d}/case.json --steps 1", "'fluid' must be a non-empty list", "case.json", FLUID("")},
    {"--scene {d}/case.json --steps 1", "fluid[0]: needs exactly one shape", "case.json", FLUID(R"({"velocity": [1, 0]})")},
    {"--scene {d}/case.json --steps 1", "fluid[0]: needs exactly one shape", "case.json",
     FLUID(R"({"box": {"min": [0, 0], "max": [1, 1]}, "disc": {"centre": [0.5, 0.5], "radius": 0.1}})")},
    {"--scene {d}/case.json --steps 1", "'max' must exceed 'min'", "case.json",
     FLUID(R"({"box": {"min": [0, 0.5], "max": [1, 0.3]}})")},
    {"--scene {d}/case.json --steps 1", "fluid[0].sphere: needs 'centre' and 'radius'", "case.json",
     FLUID(R"({"sphere": {"centre": [0.5, 0.5]}})")},
    {"--scene {d}/case.json --steps 1", "'radius' = -0.1 is out of range", "case.json",
     FLUID(R"({"disc": {"centre": [0.5, 0.5], "radius": -0.1}})")},
    {"--scene {d}/case.json --steps 1", "'velocity' exceeds 1000 m/s", "case.json",
     FLUID(R"({"box": {"min": [0, 0], "max": [1, 0.3]}, "velocity": [5000, 0]})")},
    {"--scene {d}/case.json --steps 1", "'spacing_3d' = 100 is out of range [1e-05, 10]", "case.json",
     SCENE_WITH(R"("duration": 1, "spacing_3d": 100)")},
    {"--scene {d}/case.json --steps 1", "'duration' = -1 is out of range", "case.json", SCENE_WITH(R"("duration": -1)")},
    {"--scene {d}/case.json --steps 1", "'angle' = 7 is out of range", "case.json",
     R"({"container": {"size": [1, 1, 1], "angle": 7}, "fluid": [{"box": {"min": [0, 0], "max": [1, 0.3]}}]})"},
    {"--scene {d}/case.json --steps 1", "container: 'position' exceeds 1e6 m", "case.json",
     R"({"container": {"size": [1, 1, 1], "position": [1e300, 0]}, "fluid": [{"box": {"min": [0, 0], "max": [1, 0.3]}}]})"},
    {"--scene {d}/case.json --steps 1", "emitter: 'jitter' = 2 is out of range", "case.json",
     SCENE_WITH(R"("emitter": {"jitter": 2})")},
    {"--scene {d}/case.json --steps 1", "'gravity' exceeds", "case.json", SCENE_WITH(R"("gravity": [0, -1e9])")},
    // ------------------------------------------------ scene files: numbers too large for a double
    {"--scene {d}/case.json --steps 1", "'duration': number overflow parsing '1e999'", "case.json",
     SCENE_WITH(R"("duration": 1e999)")},
    {"--scene {d}/case.json --steps 1", "'size': number overflow", "case.json",
     R"({"container": {"size": [1, 1e400, 1]}, "fluid": [{"box": {"min": [0, 0], "max": [1, 0.3]}}]})"},
    {"--scene {d}/case.json --steps 1", "'gravity': number overflow parsing '-1e999'", "case.json",
     SCENE_WITH(R"("gravity": [0, -1e999])")},
    {"--scene {d}/case.json --steps 1", "'speed_of_sound': number overflow", "case.json",
     SCENE_WITH(R"("params": {"wcsph": {"speed_of_sound": 1e999}})")},
    // ------------------------------------------------ scene files: solvers and parameters
    {"--scene {d}/case.json --steps 1", "unknown solver 'magic'", "case.json", SCENE_WITH(R"("solver": "magic")")},
    {"--scene {d}/case.json --steps 1", "params: unknown solver 'magic'", "case.json",
     SCENE_WITH(R"("params": {"magic": {}})")},
    {"--scene {d}/case.json --steps 1", "unknown parameter 'stiffness'", "case.json",
     SCENE_WITH(R"("params": {"wcsph": {"stiffness": 3}})")},
    {"--scene {d}/case.json --steps 1", "parameter 'gamma' = 70 is out of range", "case.json",
     SCENE_WITH(R"("params": {"wcsph": {"gamma": 70}})")},
    {"--scene {d}/case.json --steps 1", "'viscosity' must be a number, boolean or name", "case.json",
     SCENE_WITH(R"("params": {"wcsph": {"viscosity": null}})")},
    {"--scene {d}/case.json --steps 1", "params.wcsph: expected an object", "case.json",
     SCENE_WITH(R"("params": {"wcsph": 3})")},
    // ------------------------------------------------ scene files: obstacles (physics.md §15)
    {"--scene {d}/case.json --steps 1", "obstacles[0]: unknown key 'cone'", "case.json",
     SCENE_WITH(R"("obstacles": [{"cone": {"centre": [0.5, 0.5], "radius": 0.1}}])")},
    {"--scene {d}/case.json --steps 1", "obstacles[0]: needs exactly one shape", "case.json",
     SCENE_WITH(R"("obstacles": [{"disc": {"centre": [0.5, 0.5], "radius": 0.1}, "box": {"min": [0, 0], "max": [1, 1]}}])")},
    {"--scene {d}/case.json --steps 1", "obstacles[0].disc: 'radius' = -1 is out of range", "case.json",
     SCENE_WITH(R"("obstacles": [{"disc": {"centre": [0.5, 0.5], "radius": -1}}])")},
    {"--scene {d}/case.json --steps 1", "obstacles[1] (box) lies outside the container", "case.json",
     SCENE_WITH(R"("obstacles": [{"disc": {"centre": [0.5, 0.5], "radius": 0.1}}, {"box": {"min": [2, 0], "max": [3, 1]}}])")},
    {"--scene {d}/case.json --steps 1", "the obstacles leave no room for the liquid", "case.json",
     SCENE_WITH(R"("obstacles": [{"box": {"min": [0, 0], "max": [1, 0.5]}}])")},
    {"--scene {d}/case.json --steps 1", "less than two particle spacings", "case.json",
     SCENE_WITH(R"("obstacles": [{"box": {"min": [0.5, 0], "max": [0.52, 0.2]}}])")},
    {"--scene {d}/case.json --steps 1", "reaches into an obstacle", "case.json",
     SCENE_WITH(R"("obstacles": [{"box": {"min": [0.4, 0.7], "max": [0.6, 0.9]}}],
                   "faucet": {"position": [0.5, 0.8], "direction": [0, -1], "width": 0.1, "speed": 1})")},
    // ------------------------------------------------ scene files: floating bodies (physics.md §16)
    {"--scene {d}/case.json --steps 1", "bodies[0]: unknown key 'cone'", "case.json",
     SCENE_WITH(R"("bodies": [{"cone": {"radius": 0.1}, "position": [0.5, 0.8]}])")},
    {"--scene {d}/case.json --steps 1", "bodies[0]: needs exactly one shape", "case.json",
     SCENE_WITH(R"("bodies": [{"density": 500, "position": [0.5, 0.8]}])")},
    {"--scene {d}/case.json --steps 1", "bodies[0].hull: needs 'size' (deck width, height[, length]) and 'bottom'",
     "case.json", SCENE_WITH(R"("bodies": [{"hull": {"size": [0.2, 0.1]}, "position": [0.5, 0.8]}])")},
    {"--scene {d}/case.json --steps 1", "bodies[0].hull: 'bottom' = 0 is out of range", "case.json",
     SCENE_WITH(R"("bodies": [{"hull": {"size": [0.2, 0.1], "bottom": 0}, "position": [0.5, 0.8]}])")},
    {"--scene {d}/case.json --steps 1", "bodies[0]: 'density' = -500 is out of range", "case.json",
     SCENE_WITH(R"("bodies": [{"ball": {"radius": 0.05}, "density": -500, "position": [0.5, 0.8]}])")},
    {"--scene {d}/case.json --steps 1", "body 1 (box) does not fit inside the container", "case.json",
     SCENE_WITH(R"("bodies": [{"box": {"size": [0.2, 0.1]}, "density": 500, "position": [2, 0.8]}])")},
    {"--scene {d}/case.json --steps 1", "body 2 (ball) overlaps another body", "case.json",
     SCENE_WITH(R"("bodies": [{"ball": {"radius": 0.1}, "position": [0.5, 0.8]}, {"ball": {"radius": 0.1}, "position": [0.55, 0.8]}])")},
    {"--scene {d}/case.json --steps 1", "body 1 (capsule) is 0.01 m thin, less than two particle spacings", "case.json",
     SCENE_WITH(R"("bodies": [{"capsule": {"length": 0.2, "radius": 0.005}, "position": [0.5, 0.8]}])")},
    // ------------------------------------------------ scene files: the file itself
    {"--scene {d}/dir.json --steps 1", "scene '{d}/dir.json': is a directory", nullptr},
    {"--scene {d}/missing.json --steps 1", "scene '{d}/missing.json': no such file", nullptr},
    {"--scene {d}/fifo --steps 1", "scene '{d}/fifo': is not a regular file", nullptr},
    {"--scene no_such_scene --steps 1", "no such built-in scene", nullptr},
    {"--scene {d}/case.json --spacing 1e-4 --steps 1", "limit of 2e+07 (about 48 GB", "case.json",
     R"({"container": {"size": [1, 1, 1]}, "fluid": [{"box": {"min": [0, 0], "max": [1, 1]}}]})"},
    {"--spacing 0.3 --steps 1", "too coarse", nullptr},
    {"--spacing 0.00002 --dim 3 --steps 1", "too fine", nullptr},
    // ------------------------------------------------ motion files
    {"--motion {d}/case.csv --steps 1", "motion file '{d}/case.csv': empty file", "case.csv", ""},
    {"--motion {d}/case.csv --steps 1", "no data rows", "case.csv", "t,x,y,angle\n"},
    {"--motion {d}/case.csv --steps 1", "header must name the columns t,x,y[,z],angle", "case.csv", "t,x,angle\n0,0,0\n"},
    {"--motion {d}/case.csv --steps 1", "empty column name", "case.csv", "t,,y,angle\n0,0,0,0\n"},
    {"--motion {d}/case.csv --steps 1", "expected 4 values, found 3 (line 3)", "case.csv", "t,x,y,angle\n0,0,0,0\n1,0,0\n"},
    {"--motion {d}/case.csv --steps 1", "'abc' is not a number (line 2)", "case.csv", "t,x,y,angle\n0,abc,0,0\n"},
    {"--motion {d}/case.csv --steps 1", "'nan' is not a number", "case.csv", "t,x,y,angle\n0,0,0,0\n1,nan,0,0\n"},
    {"--motion {d}/case.csv --steps 1", "'inf' is not a number", "case.csv", "t,x,y,angle\n0,0,0,0\ninf,0,0,0\n"},
    {"--motion {d}/case.csv --steps 1", "'1e999' is not a number", "case.csv", "t,x,y,angle\n0,0,0,0\n1,1e999,0,0\n"},
    {"--motion {d}/case.csv --steps 1", "times must increase (row 3)", "case.csv", "t,x,y,angle\n0,0,0,0\n1,0,0,0\n0.5,0,0,0\n"},
    {"--motion {d}/case.csv --steps 1", "times must increase (row 2)", "case.csv", "t,x,y,angle\n0,0,0,0\n0,1,0,0\n"},
    {"--motion {d}/case.csv --steps 1", "times must not be negative", "case.csv", "t,x,y,angle\n-1,0,0,0\n1,0,0,0\n"},
    {"--motion {d}/case.csv --steps 1", "must lie within 1e6 s, m and rad (row 2)", "case.csv",
     "t,x,y,angle\n0,0,0,0\n1,1e300,0,0\n"},
    {"--motion {d}/case.csv --steps 1", "must lie within 1e6 s, m and rad (row 1)", "case.csv",
     "t,x,y,angle\n0,0,0,-1e9\n"},
    // A turn of 1e6 rad in 0.01 s ran with exit 0 while its time step collapsed to 6e-10 s.
    {"--motion {d}/case.csv --steps 1", "rows 1-2 turn the container at 1e+08 rad/s, beyond the limit of 100 rad/s",
     "case.csv", "t,x,y,angle\n0,0,0,0\n0.01,0,0,1e6\n"},
    {"--motion {d}/case.csv --steps 1", "rows 2-3 move the container at 60 m/s, beyond the limit of 50 m/s", "case.csv",
     "t,x,y,angle\n0,0,0,0\n1,0.5,0,0\n1.01,0.5,0.6,0\n"},
    {"--motion {d}/dir.json --steps 1", "motion file '{d}/dir.json': is a directory", nullptr},
    {"--motion {d}/missing.csv --steps 1", "motion file '{d}/missing.csv': no such file", nullptr},
    {"--motion {d}/fifo --steps 1", "motion file '{d}/fifo': is not a regular file", nullptr},
    // ------------------------------------------------ options
    {"--time nan", "--time: 'nan' is not a finite number", nullptr},
    {"--time inf", "--time: 'inf' is not a finite number", nullptr},
    {"--time -1", "--time: '-1'", nullptr},
    {"--time 1e999", "--time: '1e999'", nullptr},
    {"--spacing nan --steps 1", "--spacing: 'nan'", nullptr},
    {"--spacing inf --steps 1", "--spacing: 'inf'", nullptr},
    {"--spacing -0.01 --steps 1", "--spacing: '-0.01'", nullptr},
    {"--spacing 0 --steps 1", "--spacing: '0'", nullptr},
    {"--seed -1 --steps 1", "--seed: '-1' is not a whole number", nullptr},
    {"--seed nan --steps 1", "--seed: 'nan'", nullptr},
    {"--steps -5", "--steps: '-5'", nullptr},
    {"--steps 1.5", "--steps: '1.5' is not a whole number", nullptr},
    {"--steps nan", "--steps: 'nan'", nullptr},
    {"--threads 0 --steps 1", "--threads: '0'", nullptr},
    {"--dim 4 --steps 1", "--dim: '4'", nullptr},
    {"--dim nan --steps 1", "--dim: 'nan'", nullptr},
    {"--export {d}/out --every 0 --steps 1", "--every: '0'", nullptr},
    {"--every 3 --steps 1", "--every requires --export", nullptr},
    {"--export {d}/out --format xyz --steps 1", "--format: 'xyz' is not an export format (known: csv, vtk, ply)",
     nullptr},
    {"--export {d}/out --format VTK --steps 1", "'VTK' is not an export format", nullptr},
    {"--export {d}/out --format --steps 1", "--format", nullptr},
    {"--format vtk --steps 1", "--format requires --export", nullptr},
    {"--time 1 --steps 2", "--time excludes --steps", nullptr},
    {"--no-such-option", "--no-such-option", nullptr},
    {"--steps 1 --frames 10", "for the window, not --headless", nullptr},
    {"--solver magic --steps 1", "unknown solver 'magic'", nullptr},
    {"--solver magic --steps 2 --stats {d}/s.csv --export {d}/out", "unknown solver 'magic'", nullptr},
    {"--compare flip --time 0.01", "--compare takes 2 to 4 items", nullptr},
    {"--compare pic,flip,apic,wcsph,dfsph --time 0.01", "--compare takes 2 to 4 items", nullptr},
    {"--compare pic,,flip --time 0.01", "--compare: an empty item", nullptr},
    {"--compare pic,magic --time 0.01", "unknown solver 'magic'", nullptr},
    {"--compare pic,flip:alpha --time 0.01", "expected SOLVER:key=value (got 'alpha')", nullptr},
    {"--compare pic,flip:no_key=1 --time 0.01", "pane 'flip no_key=1': unknown parameter 'no_key'", nullptr},
    {"--compare pic,flip:pic_fraction=2 --time 0.01", "'pic_fraction' = 2 is out of range", nullptr},
    {"--compare pic,flip --solver wcsph --time 0.01", "--solver excludes --compare", nullptr},
    {"--compare pic,flip --steps 3", "--steps excludes --compare", nullptr},
    {"--compare pic,flip --stats {d}/s.csv --time 0.01", "--compare runs several simulations", nullptr},
    {"--set no_such_param=1 --steps 1", "unknown parameter 'no_such_param'", nullptr},
    {"--set speed_of_sound=nan --steps 1", "parameter 'speed_of_sound': cannot read 'nan'", nullptr},
    {"--set speed_of_sound=inf --steps 1", "parameter 'speed_of_sound': cannot read 'inf'", nullptr},
    {"--set speed_of_sound=1e999 --steps 1", "cannot read '1e999'", nullptr},
    {"--set speed_of_sound=1e9 --steps 1", "parameter 'speed_of_sound' = 1e+09 is out of range", nullptr},
    {"--set speed_of_sound=-3 --steps 1", "parameter 'speed_of_sound' = -3 is out of range", nullptr},
    {"--set speed_of_sound=fast --steps 1", "cannot read 'fast'", nullptr},
    {"--set speed_of_sound --steps 1", "--set expects key=value (got 'speed_of_sound')", nullptr},
    {"--set =3 --steps 1", "--set expects key=value (got '=3')", nullptr},
    {"--solver dfsph --set max_time_step=0.0166668 --steps 1", "out of range [0.0001, 0.0166667] s", nullptr},
    // ------------------------------------------------ outputs: the same file as an input or another output
    {"--scene {d}/good.json --stats {d}/good.json --steps 1", "--stats '{d}/good.json' would overwrite the input --scene",
     nullptr},
    {"--scene {d}/good.json --stats {d}/./good.json --steps 1", "would overwrite the input --scene", nullptr},
    {"--scene {d}/good.json --stats {d}/hard.json --steps 1", "would overwrite the input --scene", nullptr},
    {"--scene {d}/link.json --stats {d}/good.json --steps 1", "would overwrite the input --scene '{d}/link.json'",
     nullptr},
    {"--motion {d}/motion.csv --stats {d}/motion.csv --steps 1", "would overwrite the input --motion", nullptr},
    {"--scene {d}/good.json --save-scene {d}/good.json --steps 1", "--save-scene '{d}/good.json' would overwrite the input",
     nullptr},
    {"--save-scene {d}/s.csv --stats {d}/s.csv --steps 1", "name the same file", nullptr},
    // ------------------------------------------------ experiments
    {"--experiment nope", "unknown experiment 'nope' (known: dam_break", nullptr},
    {"--experiment dam_break --solver magic", "unknown solver 'magic'", nullptr},
    {"--experiment dam_break --scene bottle", "--scene excludes --experiment", nullptr},
    {"--experiment dam_break --steps 10", "--steps excludes --experiment", nullptr},
    {"--experiment dam_break --export {d}/out", "--export excludes --experiment", nullptr},
    {"--experiment dam_break --stats {d}/dir.json", "--stats '{d}/dir.json': is a directory", nullptr},
    {"--experiment hydrostatic --solver collisions --stats {d}/curve.csv", "solver 'collisions' has no pressure to measure",
     nullptr},
    // ------------------------------------------------ state files (damaged ones: test_cli.cpp)
    {"--load-state {d}/case.slosh --steps 1", "'{d}/case.slosh' is not a sloshlab state file", "case.slosh",
     "hello"},
    {"--load-state {d}/case.slosh --steps 1", "is not a sloshlab state file", "case.slosh", "SLOSHLAB STATE\n"},
    {"--load-state {d}/good.json --steps 1", "'{d}/good.json' is not a sloshlab state file", nullptr},
    {"--load-state {d}/missing.slosh --steps 1", "state file '{d}/missing.slosh': no such file", nullptr},
    {"--load-state {d}/dir.json --steps 1", "state file '{d}/dir.json': is a directory", nullptr},
    {"--load-state {d}/case.slosh --scene bottle --steps 1", "--scene excludes --load-state", "case.slosh", "x"},
    {"--load-state {d}/case.slosh --set viscosity=0.1 --steps 1", "--set excludes --load-state", "case.slosh", "x"},
    {"--load-state {d}/case.slosh --solver flip --steps 1", "--solver excludes --load-state", "case.slosh", "x"},
    {"--scene {d}/good.json --save-state {d}/good.json --steps 1",
     "--save-state '{d}/good.json' would overwrite the input --scene", nullptr},
    {"--save-state {d}/dir.json --steps 1", "--save-state '{d}/dir.json': is a directory", nullptr},
    {"--save-state {d}/s.csv --stats {d}/s.csv --steps 1", "name the same file", nullptr},
    {"--save-scene {d}/dir.json --steps 1", "--save-scene '{d}/dir.json': is a directory", nullptr},
    {"--export {d}/out --stats {d}/out --steps 1", "--stats '{d}/out' is the --export '{d}/out' directory", nullptr},
    {"--export {d}/out/ --stats {d}/out --steps 1", "is the --export", nullptr},
    {"--export {d}/exp --stats {d}/exp/particles_0.csv --steps 1", "would be overwritten by --export", nullptr},
    {"--export {d}/exp --format vtk --stats {d}/exp/particles.pvd --steps 1", "would be overwritten by --export",
     nullptr},
    {"--export {d}/exp --format ply --stats {d}/exp/container_3.ply --steps 1", "would be overwritten by --export",
     nullptr},
    {"--export {d}/exp --motion {d}/exp/container.csv --steps 1",
     "--motion '{d}/exp/container.csv' would be overwritten by --export", nullptr},
    {"--export {d} --scene {d}/good.json --stats {d}/container.csv --steps 1", "would be overwritten by --export",
     nullptr},
    // ------------------------------------------------ outputs: what cannot be written
    {"--stats {d}/fifo --steps 1", "--stats '{d}/fifo': is not a regular file", nullptr},
    {"--stats {d}/devnull --steps 1", "--stats '{d}/devnull': is a symbolic link", nullptr},
    {"--stats {d}/link.json --steps 1", "is a symbolic link", nullptr},
    {"--stats {d}/dir.json --steps 1", "--stats '{d}/dir.json': is a directory", nullptr},
    {"--stats {d}/no/such/s.csv --steps 1", "directory '{d}/no/such' does not exist", nullptr},
    {"--stats {d}/file.txt/s.csv --steps 1", "'{d}/file.txt' is not a directory", nullptr},
    {"--export {d}/file.txt --steps 1", "--export '{d}/file.txt'", nullptr},
    {"--export {d}/file.txt/sub --steps 1", "cannot be created", nullptr},
    {"--export {d}/devnull --steps 1", "is not a directory", nullptr},
    {"--export {d}/exp_link --steps 1", "'container.csv' is a symbolic link", nullptr},
};

#undef GOOD_SCENE_MEMBERS
#undef SCENE_WITH
#undef FLUID

std::string expand(std::string text, const std::string& dir) {
  for (std::size_t at; (at = text.find("{d}")) != std::string::npos;) text.replace(at, 3, dir);
  return text;
}

// The fixture every case starts from. Real device nodes are left out on purpose: the
// suite may run as root, where a regression would replace /dev/null; a link to it and
// a FIFO stand for them.
void makeFixture(const std::string& d) {
  writeText(d + "/good.json", kScene);
  writeText(d + "/motion.csv", kMotion);
  writeText(d + "/file.txt", "a file\n");
  fs::create_directory(d + "/dir.json");
  ASSERT_EQ(::mkfifo((d + "/fifo").c_str(), 0644), 0);
  fs::create_symlink("/dev/null", d + "/devnull");
  fs::create_symlink("good.json", d + "/link.json");
  fs::create_hard_link(d + "/good.json", d + "/hard.json");
  fs::create_directory(d + "/exp");
  writeText(d + "/exp/container.csv", kMotion);
  fs::create_directory(d + "/exp_link");
  fs::create_symlink("../good.json", d + "/exp_link/container.csv");
}

// Everything under d: kind, and size, modification time and content for a regular
// file, the target for a link. Never opens a FIFO (that would block).
std::map<std::string, std::string> snapshot(const fs::path& d) {
  std::map<std::string, std::string> out;
  for (const auto& e : fs::recursive_directory_iterator(d)) {
    std::ostringstream s;
    const fs::file_status st = e.symlink_status();
    s << static_cast<int>(st.type());
    if (st.type() == fs::file_type::symlink) s << " -> " << fs::read_symlink(e.path()).string();
    if (st.type() == fs::file_type::regular) {
      s << " " << e.file_size() << " " << e.last_write_time().time_since_epoch().count() << " ";
      s << std::ifstream(e.path(), std::ios::binary).rdbuf();
    }
    out[e.path().string()] = s.str();
  }
  return out;
}

// The paths whose entry differs between two snapshots (content would flood the log).
std::string changes(const std::map<std::string, std::string>& before, const std::map<std::string, std::string>& after) {
  std::string out;
  for (const auto& [path, what] : after)
    if (!before.count(path) || before.at(path) != what) out += (before.count(path) ? " changed " : " created ") + path;
  for (const auto& [path, what] : before)
    if (!after.count(path)) out += " removed " + path;
  return out;
}

TEST(BadInputCorpus, OneLineStatusTwoAndNoFileTouched) {
  EXPECT_GE(std::size(kCorpus), 100u);
  for (const BadInput& c : kCorpus) {
    const std::string dir = makeTempDir("bad");
    makeFixture(dir);
    if (c.file) writeText(dir + "/" + c.file, c.text);
    const std::string args = expand(c.args, dir), expect = expand(c.expect, dir);
    SCOPED_TRACE("sloshlab --headless " + args);
    const auto before = snapshot(dir);
    const CommandResult r =
        runCommand("cd '" + dir + "' && '" SLOSHLAB_EXECUTABLE "' --headless " + args);
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_EQ(countLines(r.err), 1) << r.err;
    EXPECT_EQ(r.err.rfind("sloshlab: error: ", 0), 0u) << r.err;
    EXPECT_NE(r.err.find(expect), std::string::npos) << "expected '" << expect << "' in: " << r.err;
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(changes(before, snapshot(dir)), "");
    fs::remove_all(dir);
  }
}

}  // namespace
}  // namespace sloshlab::test
