#include "cell_sort.h"

#include "gl_context.h"

#include <algorithm>
#include <cmath>

namespace sloshlab::gpu {

namespace {
constexpr std::size_t kScanBlock = 512;  // values per work group of scan_blocks.comp
}

CellSort::CellSort(int dim)
    : m_count(dim, {"common.glsl", "sort_count.comp"}),
      m_scanBlocks(dim, {"common.glsl", "scan_blocks.comp"}),
      m_scanAdd(dim, {"common.glsl", "scan_add.comp"}),
      m_scatter(dim, {"common.glsl", "sort_scatter.comp"}),
      m_orderCells(dim, {"common.glsl", "sort_cells.comp"}),
      m_gather(dim, {"common.glsl", "gather.comp"}),
      m_listBuild(dim, {"common.glsl", "neighbours.glsl", "neighbour_list.comp"}),
      // Levels of 512: four reach 512^4 cells. Sized once, so that the recursion's
      // references into them stay valid.
      m_blockSums(4),
      m_blockOffsets(4) {}

void CellSort::sort(const Buffer& x, std::size_t n, std::size_t cells) {
  m_counts.reserve((cells + 1) * sizeof(std::uint32_t));
  m_counts.fillZero();
  m_cell.reserve(n * sizeof(std::uint32_t));
  m_rank.reserve(n * sizeof(std::uint32_t));
  m_order.reserve(n * sizeof(std::uint32_t));
  m_count.use({&x, &m_counts, &m_cell, &m_rank}).run(n);
  // The starts of cells + 1 entries: the last one, over the zero count past the end, is n.
  scan(m_counts, m_starts, cells + 1, 0);
  m_scatter.use({&m_cell, &m_rank, &m_starts, &m_order}).run(n);
  m_orderCells.use({&x, &m_starts, &m_order}).set("cells", static_cast<unsigned>(cells)).run(cells);
}

std::uint32_t CellSort::listCapacity(int dim, double cellsPerSpacing) {
  const double pi = 3.14159265358979323846, c = cellsPerSpacing;
  const double atRest = dim == 2 ? pi * c * c : 4.0 / 3.0 * pi * c * c * c;
  return 16u * static_cast<std::uint32_t>(std::ceil(1.6 * atRest / 16.0));
}

void CellSort::buildLists(const Buffer& x, std::size_t n, std::uint32_t capacity) {
  m_listCount.reserve(n * sizeof(std::uint32_t));
  m_list.reserve(std::max<std::size_t>(n, 1) * capacity * sizeof(std::uint32_t));
  m_starts.bind(7);
  m_listBuild.use({&x, &m_listCount, &m_list}).run(n);
  bindNeighbours();
}

void CellSort::bindNeighbours() const {
  m_starts.bind(7);
  m_listCount.bind(8);
  m_list.bind(9);
}

void CellSort::scan(const Buffer& in, Buffer& out, std::size_t count, std::size_t level) {
  const std::size_t blocks = (count + kScanBlock - 1) / kScanBlock;
  if (level >= m_blockSums.size()) throw GpuUnavailable("the neighbour grid has more cells than the scan reaches");
  out.reserve(count * sizeof(std::uint32_t));
  m_blockSums[level].reserve(blocks * sizeof(std::uint32_t));
  m_scanBlocks.use({&in, &out, &m_blockSums[level]}).set("count", static_cast<unsigned>(count));
  glDispatchCompute(static_cast<GLuint>(blocks), 1, 1);
  glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
  if (blocks == 1) return;
  scan(m_blockSums[level], m_blockOffsets[level], blocks, level + 1);
  m_scanAdd.use({&out, &m_blockOffsets[level]}).set("count", static_cast<unsigned>(count)).run(count, 256);
}

void CellSort::gather(const Buffer& inA, Buffer& outA, const Buffer* inB, Buffer* outB, std::size_t n) const {
  outA.reserve(n * 16);
  if (outB) outB->reserve(n * 16);
  const Buffer* b = inB ? inB : &inA;
  const Buffer* c = outB ? outB : &outA;
  m_gather.use({&m_order, &inA, &outA, b, c}).set("streams", inB ? 2 : 1).run(n);
}

}  // namespace sloshlab::gpu
