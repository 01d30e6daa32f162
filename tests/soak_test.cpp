// Soak: loading and dropping meshes and resizing the render target hundreds of times leaves
// the heap where it started (no leak, no scratch buffer that only ever grows).
#include "draw_with.h"
#include "asset/load_model.h"
#include "core/camera.h"
#include "cpu/cpu_renderer.h"
#include "test_support.h"

#include <gtest/gtest.h>

#include <malloc.h>

#include <algorithm>
#include <sstream>

#if defined(FACET_TEST_ASAN)
// From the sanitizer runtime's allocator interface (GCC ships no header for it).
extern "C" std::size_t __sanitizer_get_current_allocated_bytes();
#endif

namespace facet {
namespace {

// Bytes the program holds on the heap now: glibc's arena in use plus what it mapped for large
// blocks (hblkhd: allocations above the mmap threshold, a mesh's arrays among them). Under ASan,
// glibc's counters see none of it.
std::size_t heapInUse() {
#if defined(FACET_TEST_ASAN)
    return __sanitizer_get_current_allocated_bytes();
#else
    const struct mallinfo2 info = mallinfo2();
    return info.uordblks + info.hblkhd;
#endif
}

// A textured n x n grid of quads with a material library and a texture beside it.
std::filesystem::path writeGrid(int n) {
    const auto dir = test::scratchDir("soak");
    std::ostringstream obj;
    obj << "mtllib grid.mtl\nusemtl checker\n";
    for (int y = 0; y <= n; ++y)
        for (int x = 0; x <= n; ++x) obj << "v " << x << ' ' << y << " 0\nvt " << x % 2 << ' ' << y % 2 << '\n';
    for (int y = 0; y < n; ++y)
        for (int x = 0; x < n; ++x) {
            const int a = y * (n + 1) + x + 1, b = a + 1, c = a + n + 2, d = a + n + 1;
            obj << "f " << a << '/' << a << ' ' << b << '/' << b << ' ' << c << '/' << c << ' ' << d << '/' << d << '\n';
        }
    test::writeFile(dir / "grid.mtl", "newmtl checker\nKd 1 1 1\nmap_Kd missing.png\n");
    return test::writeFile(dir / "grid.obj", obj.str());
}

TEST(Soak, LoadingAndResizingHundredsOfTimesReturnsTheHeapToItsStart) {
    const auto path = writeGrid(40); // 3,200 triangles
    const int sizes[][2] = {{640, 480}, {1, 1}, {1920, 1080}, {33, 17}, {64, 4096}, {300, 301}};
    CpuRenderer renderer(2);
    const auto frame = [&](int i) {
        const Model model = loadModel(path);
        const int w = sizes[i % 6][0], h = sizes[i % 6][1];
        std::vector<std::uint32_t> color(std::size_t(w) * h);
        std::vector<float> depth(color.size());
        Camera cam = Camera::framing(model.mesh, float(w) / float(h));
        test::drawWith(renderer, model, cam.view(float(w) / float(h)), RenderSettings{}, FrameView{color.data(), depth.data(), w, h});
        return std::count_if(depth.begin(), depth.end(), [](float d) { return d < 1.0f; });
    };
    // The first round of every size grows the renderer's scratch buffers to their largest.
    for (int i = 0; i < 6; ++i) frame(i);
    const std::size_t before = heapInUse();
    std::size_t peak = before;
    for (int i = 0; i < 300; ++i) {
        ASSERT_GT(frame(i), 0) << "the grid is in view, round " << i;
        peak = std::max(peak, heapInUse());
    }
    const std::size_t after = heapInUse();
    std::cout << "[ soak    ] heap before " << before / 1024 << " KiB, after 300 rounds " << after / 1024
              << " KiB, peak between rounds " << peak / 1024 << " KiB\n";
    EXPECT_LE(after, before + 256 * 1024) << "the heap grew by " << (after - before) / 1024 << " KiB";
    // Between rounds (each round's model and frame freed) the heap stays where it started: a
    // buffer growing for a while and then given back would show here, not at the end.
    EXPECT_LE(peak, before + 256 * 1024) << "between rounds the heap reached " << (peak - before) / 1024
                                         << " KiB above its start";
}

} // namespace
} // namespace facet
