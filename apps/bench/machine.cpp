#include "bench/machine.h"
#include "cpu/simd/isa.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <thread>

namespace facet::bench {

namespace {

// The vector path the engine's vertex loops take at run time (cpu/simd/isa.h), and why not AVX-512
// where the CPU has it.
std::string vectorPath() {
    const Isa isa = chosenIsa();
    if (isa == Isa::Avx512) return "AVX-512";
    const std::string path = isa == Isa::Avx2 ? "AVX2" : "scalar";
    if (isa != defaultIsa()) return path + " (FACET_ISA)";
    return path + (cpuSupports(Isa::Avx512) ? " (AVX-512 lowers this CPU's clock)" : " (no AVX-512)");
}

// How the texture sampling reads texels (cpu/simd/isa.h), and why.
std::string texelReads() {
    const IndexedLoads loads = chosenIndexedLoads();
    const char* requested = std::getenv("FACET_INDEXED_LOADS");
    const std::string how = loads == IndexedLoads::ByLane ? "texels read by lane" : "texels read by gathers";
    if (requested && *requested) return how + " (FACET_INDEXED_LOADS)";
    return how + (loads == IndexedLoads::ByLane ? " (this CPU's gathers are slowed)" : "");
}

// Which texture filters the classic look takes (cpu/simd/isa.h).
std::string textureFilters() {
    return wideFilterChosen() ? "texture filters AVX-512" : "texture filters AVX2";
}

// The value of the first line of /proc/cpuinfo whose key is `key` exactly ("model" is not
// "model name"), or empty where none is.
std::string cpuinfoField(const std::string& key) {
    std::ifstream in("/proc/cpuinfo");
    for (std::string line; std::getline(in, line);) {
        const auto colon = line.find(':');
        if (colon == std::string::npos) continue;
        std::string name = line.substr(0, colon);
        name.erase(name.find_last_not_of(" \t") + 1);
        if (name == key) return line.substr(std::min(line.size(), colon + 2));
    }
    return {};
}

// The model name from /proc/cpuinfo with its family, model and stepping numbers (a hypervisor
// may pass on a generic name, "Intel(R) Xeon(R) Processor", where the numbers still tell the
// core), then the vector path, the texel reads and the texture filters.
std::string cpuModel() {
    std::string model = cpuinfoField("model name");
    if (model.empty()) model = "unknown (no model name in /proc/cpuinfo)";
    const std::string family = cpuinfoField("cpu family"), number = cpuinfoField("model");
    const std::string stepping = cpuinfoField("stepping");
    if (!family.empty() && !number.empty())
        model += " (family " + family + " model " + number + (stepping.empty() ? "" : " stepping " + stepping) + ")";
    return model + ", " + vectorPath() + ", " + texelReads() + ", " + textureFilters();
}

} // namespace

Machine probeMachine(int gpuDevice) {
    Machine m;
    m.cpu = cpuModel();
    m.hardwareThreads = std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
    m.gpuDevice = gpuDevice;
    m.gpu = probeGpu(gpuDevice);
    m.gl = probeOpenGl();
    return m;
}

std::string gpuText(const GpuStatus& gpu) {
    return gpu.usable ? gpu.deviceName + " (compute " + std::to_string(gpu.computeMajor) + "." +
                            std::to_string(gpu.computeMinor) + ")"
                      : "none: " + gpu.reason;
}

} // namespace facet::bench
