#include "display/display_target.h"

#include "core/error.h"
#if defined(FACET_HAVE_CUDA)
#include "display/cuda_interop.h"
#endif

#include <algorithm>
#include <vector>

namespace facet {

#if defined(FACET_HAVE_CUDA)
struct DisplayFrame::Interop {
    InteropBuffer buffer;                // registration of pixels_; destroyed after the map below
    std::optional<MappedInterop> mapped; // the current frame's map, on the renderer's stream
    int checkedDevice = -1;              // the device `served` was asked for
    bool served = false;                 // the window's context runs on that device
    bool abandoned = false;              // a GPU failure: never touch CUDA again
};
#else
struct DisplayFrame::Interop {};
#endif

DisplayFrame::DisplayFrame() {
#if defined(FACET_HAVE_CUDA)
    interop_ = std::make_unique<Interop>();
#endif
}

DisplayFrame::~DisplayFrame() {
    hostMap_.reset();
#if defined(FACET_HAVE_CUDA)
    interop_->mapped.reset();
    interop_->buffer.abandon(); // unregistered (best effort) before pixels_ is deleted
#endif
}

void DisplayFrame::releaseDevice() {
#if defined(FACET_HAVE_CUDA)
    if (interop_->abandoned || !interop_->buffer.attached()) return;
    interop_->mapped.reset();
    try {
        interop_->buffer.release();
    } catch (const Error&) {
        abandonDevice(); // CUDA is failing: that buffer is given up for a fresh one
    }
#endif
}

int DisplayFrame::contextCudaDevice() {
#if defined(FACET_HAVE_CUDA)
    const std::vector<int> devices = cudaDevicesForCurrentGlContext();
    return devices.empty() ? -1 : devices.front();
#else
    return -1;
#endif
}

void DisplayFrame::resize(int width, int height) {
    if (width == pixels_.width() && height == pixels_.height() && pixels_.name() != 0) return;
    releaseDevice(); // new storage: CUDA must not keep the old registration
    pixels_.resize(width, height);
}

std::uint32_t* DisplayFrame::mapHost() {
    releaseDevice(); // GL must not map the buffer while CUDA holds it
    hostMap_.emplace(pixels_);
    return hostMap_->pixels();
}

void DisplayFrame::unmapHost() {
    // Contents lost while mapped (rare): that frame shows garbage, the next one is fine.
    if (hostMap_) hostMap_->unmap();
    hostMap_.reset();
}

#if defined(FACET_HAVE_CUDA)
std::uint32_t* DisplayFrame::mapDevice(int device, void* stream) {
    Interop& i = *interop_;
    if (i.abandoned) return nullptr;
    if (i.checkedDevice != device) {
        const std::vector<int> devices = cudaDevicesForCurrentGlContext();
        i.served = std::find(devices.begin(), devices.end(), device) != devices.end();
        i.checkedDevice = device;
    }
    if (!i.served) return nullptr;
    makeDeviceCurrent(device); // before the buffer is registered or mapped: on the renderer's device
    i.buffer.attach(pixels_);  // registered again only after the buffer's storage changed
    i.mapped.emplace(i.buffer, stream);
    return i.mapped->pixels();
}

void DisplayFrame::unmapDevice() {
    if (!interop_->mapped) return;
    interop_->mapped->unmap();
    interop_->mapped.reset();
}

void DisplayFrame::abandonDevice() noexcept {
    // After a sticky CUDA error the unmap may fail and leave the buffer mapped: that buffer is
    // given up for a fresh one, and interop is not tried again.
    interop_->mapped.reset();
    interop_->buffer.abandon();
    interop_->abandoned = true;
    const int width = pixels_.width(), height = pixels_.height();
    pixels_.abandon();
    try {
        if (width > 0 && height > 0) pixels_.resize(width, height);
    } catch (const Error&) {
        // The next frame's resize tries again and reports it.
    }
}
#else
std::uint32_t* DisplayFrame::mapDevice(int, void*) { return nullptr; }
void DisplayFrame::unmapDevice() {}
void DisplayFrame::abandonDevice() noexcept {}
#endif

} // namespace facet
