// The window's frame as the renderer's DisplayTarget (engine/renderer.h): one OpenGL pixel
// buffer, mapped for the CPU to write (glMapBufferRange) or, with CUDA, registered and mapped
// for the GPU's kernels (display/cuda_interop.h). The two never overlap: the buffer is
// unregistered from CUDA before GL maps or reallocates it, so GL never changes storage CUDA
// holds. Interop is used only where the window's context lives on the renderer's CUDA device
// (cudaGLGetDevices); elsewhere (a hybrid laptop's integrated GPU drives the window) mapDevice
// answers nullptr and the renderer copies the frame through the host.
// Needs the window's current OpenGL context; destroy it while that context is current.
#pragma once

#include "display/pixel_buffer.h"
#include "renderer.h"

#include <memory>
#include <optional>

namespace facet {

class DisplayFrame : public DisplayTarget {
public:
    DisplayFrame();
    ~DisplayFrame() override; // unregisters from CUDA before the buffer is deleted; never throws
    DisplayFrame(const DisplayFrame&) = delete;
    DisplayFrame& operator=(const DisplayFrame&) = delete;

    // Sizes the buffer for the next frame (contents dropped on a change). Throws facet::Error.
    void resize(int width, int height);
    // The buffer, unmapped, for FrameDisplay::upload.
    const PixelBuffer& pixels() const { return pixels_; }

    int width() const override { return pixels_.width(); }
    int height() const override { return pixels_.height(); }
    std::uint32_t* mapHost() override;
    void unmapHost() override;
    std::uint32_t* mapDevice(int device, void* stream) override;
    void unmapDevice() override;
    void abandonDevice() noexcept override;

    // The CUDA device driving the current OpenGL context, -1 when none does (or without CUDA):
    // the GPU to render on when interop should serve the window.
    static int contextCudaDevice();

private:
    void releaseDevice();

    // Declared first, destroyed last: CUDA lets go of the buffer (below) before GL deletes it.
    PixelBuffer pixels_;
    std::optional<MappedPixels> hostMap_;
    struct Interop;
    std::unique_ptr<Interop> interop_; // null in a build without CUDA
};

} // namespace facet
