// Scenes written back (sim/src/scene_writer.cpp): every built-in scene survives the
// round trip to JSON, and a run's scene, with its edited parameters and spacing, starts
// the same run again, bit for bit.
#include "support/test_support.h"

#include "sloshlab/emitter.h"
#include "sloshlab/scene.h"
#include "sloshlab/solver_registry.h"

#include <gtest/gtest.h>

namespace sloshlab::test {
namespace {

TEST(SceneWriter, EveryBuiltinSceneSurvivesTheRoundTrip) {
  for (const std::string& name : builtinSceneNames()) {
    const Scene scene = loadScene(name);
    const std::string once = sceneToJson(scene);
    const Scene back = parseScene(once, "back.json");
    EXPECT_EQ(sceneToJson(back), once) << name;  // a fixed point: nothing lost, nothing added
    for (int dim : {2, 3}) {
      ParticleSet<2> a2, b2;
      ParticleSet<3> a3, b3;
      if (dim == 2) {
        emitFluid<2>(scene, scene.spacingFor("wcsph", 2), 7, a2);
        emitFluid<2>(back, back.spacingFor("wcsph", 2), 7, b2);
        ASSERT_EQ(a2.size(), b2.size()) << name;
        for (std::size_t i = 0; i < a2.size(); ++i) ASSERT_EQ(a2.x[i], b2.x[i]) << name;
      } else {
        emitFluid<3>(scene, scene.spacingFor("flip", 3), 7, a3);
        emitFluid<3>(back, back.spacingFor("flip", 3), 7, b3);
        ASSERT_EQ(a3.size(), b3.size()) << name;
        for (std::size_t i = 0; i < a3.size(); ++i) ASSERT_EQ(a3.x[i], b3.x[i]) << name;
      }
    }
  }
}

// The run given by solver, spacing and --set overrides, and the run of its written
// scene alone, step by step.
template <int D>
void expectSameRun(const std::string& solver) {
  SimSpec spec;
  spec.scene = "drop";
  spec.solver = solver;
  spec.spacing = D == 2 ? 0.013 : 0.027;
  // Two edited parameters per solver: the first real and the last parameter of the
  // table, each moved a third of the way through its range.
  auto probe = makeSim<D>(spec);
  const ParamTable& table = probe->solverParams().table();
  for (const ParamInfo* info : {&table.entries.front(), &table.entries.back()}) {
    if (info->kind != ParamKind::Real) continue;
    spec.overrides.emplace_back(info->key, std::to_string(info->min + (info->max - info->min) / 3.0));
  }
  auto edited = makeSim<D>(spec);
  const std::string json = sceneToJson(sceneOfRun(*edited));

  SimSpec fromFile;
  auto again = makeSimFromJson<D>(json, fromFile);
  EXPECT_EQ(again->solverName(), solver);
  EXPECT_DOUBLE_EQ(again->spacing(), spec.spacing);
  // Every parameter as edited, bit for bit, and the edits differ from the defaults.
  ParamRef was = edited->solverParams(), now = again->solverParams(), defaults = probe->solverParams();
  int edits = 0;
  for (const ParamInfo& info : table.entries) {
    EXPECT_EQ(now.get(info), was.get(info)) << solver << " " << info.key;
    edits += was.get(info) != defaults.get(info);
  }
  EXPECT_EQ(edits, static_cast<int>(spec.overrides.size())) << solver;
  EXPECT_GE(edits, 1) << solver;
  for (int i = 0; i < 40 && !edited->failed(); ++i) {
    edited->step(0.0);
    again->step(0.0);
  }
  ASSERT_EQ(edited->failed(), again->failed());
  ASSERT_EQ(edited->particleCount(), again->particleCount());
  const auto& a = edited->particles().x;
  const auto& b = again->particles().x;
  for (std::size_t i = 0; i < a.size(); ++i) ASSERT_EQ(a[i], b[i]) << solver << " " << D << "D particle " << i;
  EXPECT_EQ(edited->time(), again->time());
}

class WrittenScene : public ::testing::TestWithParam<std::string> {};
TEST_P(WrittenScene, StartsTheSameRun2D) { expectSameRun<2>(GetParam()); }
TEST_P(WrittenScene, StartsTheSameRun3D) { expectSameRun<3>(GetParam()); }

INSTANTIATE_TEST_SUITE_P(EverySolver, WrittenScene, ::testing::ValuesIn(allSolverNames()),
                         [](const auto& param) { return param.param; });

}  // namespace
}  // namespace sloshlab::test
