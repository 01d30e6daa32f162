# Installing facet (docs/guide.md "Install"): the apps into bin/, the front door's headers into
# include/facet/, the static libraries and the CMake package into lib/, facet.pc, the CUDA
# runtime into lib/facet/, and what the apps read at run time into share/facet/
# (apps/app_info.h finds it from the binary). CPack turns the same rules into
# facet_<version>_amd64.deb.
include(CMakePackageConfigHelpers)

set(FACET_CMAKE_DIR "${CMAKE_INSTALL_LIBDIR}/cmake/facet")

# ---- The apps and their run-time files ----
install(TARGETS facet-render facet-viewer facet-bench facet-scenegen RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}")
install(DIRECTORY "${PROJECT_SOURCE_DIR}/assets/default_scene" DESTINATION "${CMAKE_INSTALL_DATADIR}/facet")
install(DIRECTORY "${PROJECT_SOURCE_DIR}/assets/material_scene" DESTINATION "${CMAKE_INSTALL_DATADIR}/facet")
install(FILES "${PROJECT_SOURCE_DIR}/scripts/numpy_vertex_baseline.py" DESTINATION "${CMAKE_INSTALL_DATADIR}/facet")
install(FILES "${PROJECT_SOURCE_DIR}/README.md" "${PROJECT_SOURCE_DIR}/CHANGELOG.md"
        DESTINATION "${CMAKE_INSTALL_DOCDIR}")
# README's links lead into docs/, installed beside it so they resolve there too.
install(DIRECTORY "${PROJECT_SOURCE_DIR}/docs" DESTINATION "${CMAKE_INSTALL_DOCDIR}" FILES_MATCHING PATTERN "*.md"
        PATTERN "*.png")

# ---- The CUDA runtime, carried along: the programs link the shared libcudart (the project's
# rule), which a machine without the CUDA toolkit lacks, so the install carries the one the
# build linked in a private folder (lib/facet/, not on the loader's path) and the installed
# programs find it through an RPATH relative to themselves. NVIDIA's CUDA EULA (Attachment A)
# lists the CUDA runtime (cudart) among the files an application may redistribute. The build
# tree still loads the toolkit's (CMake's build RPATH). The GPU also needs NVIDIA's driver
# (libcuda.so.1), which only the machine's own driver install can provide.
if(FACET_HAVE_CUDA)
  get_target_property(facet_cudart_linked CUDA::cudart IMPORTED_LOCATION)
  get_filename_component(facet_cudart_dir "${facet_cudart_linked}" DIRECTORY)
  set(facet_cudart_soname "libcudart.so.${CUDAToolkit_VERSION_MAJOR}")
  file(REAL_PATH "${facet_cudart_linked}" facet_cudart_real)
  if(NOT EXISTS "${facet_cudart_dir}/${facet_cudart_soname}")
    message(FATAL_ERROR "the CUDA runtime's ${facet_cudart_soname} is not beside ${facet_cudart_linked}")
  endif()
  file(REAL_PATH "${facet_cudart_dir}/${facet_cudart_soname}" facet_cudart_soname_real)
  if(NOT facet_cudart_soname_real STREQUAL facet_cudart_real)
    message(FATAL_ERROR "${facet_cudart_linked} and ${facet_cudart_dir}/${facet_cudart_soname} are not the same file")
  endif()
  set(FACET_PRIVATE_LIBDIR "${CMAKE_INSTALL_LIBDIR}/facet")
  # The real file under its own name, and the soname as the toolkit has it (a link to it).
  install(FILES "${facet_cudart_real}" DESTINATION "${FACET_PRIVATE_LIBDIR}")
  get_filename_component(facet_cudart_real_name "${facet_cudart_real}" NAME)
  if(NOT facet_cudart_real_name STREQUAL facet_cudart_soname)
    install(CODE "file(CREATE_LINK \"${facet_cudart_real_name}\"
      \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${FACET_PRIVATE_LIBDIR}/${facet_cudart_soname}\" SYMBOLIC)")
  endif()
  file(RELATIVE_PATH facet_private_from_bin "${CMAKE_INSTALL_FULL_BINDIR}" "${CMAKE_INSTALL_FULL_LIBDIR}/facet")
  set_target_properties(facet-render facet-viewer facet-bench facet-scenegen PROPERTIES
    INSTALL_RPATH "$ORIGIN/${facet_private_from_bin}")
endif()

# ---- The libraries: the front door and everything its static archive needs at link time ----
# Exported as facet::core (the engine: model, camera, loaders, the CPU pipeline),
# facet::renderer (the front door, engine/renderer.h), facet::cuda (the CUDA backend, or its
# stub in a build without CUDA) and the backends' parts the renderer links privately.
# facetConfig.cmake adds facet::engine: the front door with all of it, what a consumer links.
set(facet_exported facet_engine facet_renderer facet_cuda facet_gl facet_gl_objects facet_glad facet_stb)
if(TARGET facet_kernels_host)
  list(APPEND facet_exported facet_kernels_host)
endif()
foreach(target IN LISTS facet_exported)
  string(REGEX REPLACE "^facet_" "" name "${target}")
  set_target_properties(${target} PROPERTIES EXPORT_NAME "${name}")
endforeach()
set_target_properties(facet_engine PROPERTIES EXPORT_NAME core)
set_property(TARGET facet_engine APPEND PROPERTY INTERFACE_COMPILE_FEATURES cxx_std_17)
install(TARGETS ${facet_exported} EXPORT facetTargets ARCHIVE DESTINATION "${CMAKE_INSTALL_LIBDIR}")
install(EXPORT facetTargets NAMESPACE facet:: DESTINATION "${FACET_CMAKE_DIR}")

# ---- Headers: renderer.h and what it includes, transitively, plus what a caller uses with it
# (loading a model, framing a camera, the errors). Followed at install time, so a header newly
# included by one of them is installed without a list to keep. version.h is written by
# apps/CMakeLists.txt from project()'s version.
install(FILES "${PROJECT_BINARY_DIR}/include/facet/version.h" DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}/facet")
set(facet_header_roots renderer.h asset/load_model.h core/camera.h core/error.h)
install(CODE "
  set(FACET_ENGINE_DIR \"${PROJECT_SOURCE_DIR}/engine\")
  set(FACET_HEADER_ROOTS \"${facet_header_roots}\")
  set(FACET_HEADER_DESTINATION \"\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_INCLUDEDIR}/facet\")
  include(\"${PROJECT_SOURCE_DIR}/cmake/install_headers.cmake\")")

# ---- The CMake package and facet.pc ----
configure_package_config_file("${PROJECT_SOURCE_DIR}/cmake/facetConfig.cmake.in"
  "${PROJECT_BINARY_DIR}/facetConfig.cmake" INSTALL_DESTINATION "${FACET_CMAKE_DIR}"
  PATH_VARS CMAKE_INSTALL_LIBDIR)
# 0.x: a new minor version may change the API, so find_package(facet 0.2) takes 0.2.x only.
write_basic_package_version_file("${PROJECT_BINARY_DIR}/facetConfigVersion.cmake"
  COMPATIBILITY SameMinorVersion)
install(FILES "${PROJECT_BINARY_DIR}/facetConfig.cmake" "${PROJECT_BINARY_DIR}/facetConfigVersion.cmake"
        DESTINATION "${FACET_CMAKE_DIR}")

# facet.pc lists every archive and system library in link order (static archives carry no
# dependencies of their own); its prefix follows the file, so any --prefix works.
set(facet_pc_libs -lfacet_renderer)
if(TARGET facet_kernels_host)
  string(APPEND facet_pc_libs " -lfacet_kernels_host")
endif()
string(APPEND facet_pc_libs " -lfacet_gl -lfacet_gl_objects -lfacet_glad -lfacet_cuda -lfacet_engine -ltinygltf -lz")
# With CUDA, the program links the CUDA runtime installed with facet (lib/facet/) and finds it
# there at run time through an RPATH, as facetConfig's facet::cudart does.
set(facet_pc_private "")
if(FACET_HAVE_CUDA)
  set(facet_pc_private "\${libdir}/facet/${facet_cudart_soname} -Wl,-rpath,\${libdir}/facet")
endif()
file(RELATIVE_PATH facet_pc_to_prefix "${CMAKE_INSTALL_FULL_LIBDIR}/pkgconfig" "${CMAKE_INSTALL_PREFIX}")
string(REGEX REPLACE "/$" "" facet_pc_to_prefix "${facet_pc_to_prefix}")
configure_file("${PROJECT_SOURCE_DIR}/cmake/facet.pc.in" "${PROJECT_BINARY_DIR}/facet.pc" @ONLY)
install(FILES "${PROJECT_BINARY_DIR}/facet.pc" DESTINATION "${CMAKE_INSTALL_LIBDIR}/pkgconfig")

# ---- The Debian package: cpack -G DEB (docs/guide.md "Install") ----
set(CPACK_PACKAGE_NAME facet)
set(CPACK_PACKAGE_VENDOR "facet")
set(CPACK_PACKAGE_CONTACT "facet maintainers <maintainers@users.noreply.a-seed-d788b469.example>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "real-time software rasterizer (CPU and CUDA) with viewer and tools")
set(CPACK_PACKAGE_DESCRIPTION "facet renders OBJ meshes in real time on the CPU (AVX2) or a CUDA GPU.
It installs facet-viewer (a window with a fly camera), facet-render (a mesh to PNG,
headless), facet-bench and facet-scenegen, the default scene, and the engine's static
libraries, headers and CMake package (find_package(facet)) for programs that render
through its front door. The GPU stages need NVIDIA's driver (libcuda.so.1); without it
everything renders on the CPU. Built for x86-64-v3 processors (AVX2 and FMA).")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_PACKAGE_SECTION graphics)
# The shared libraries the binaries load (NEEDED) come from dpkg-shlibdeps: libc6, libstdc++6,
# libgcc-s1, libglfw3, libegl1, libstb0, libtinygltf2d, zlib1g. libGL.so.1 is opened at run time (glad, GLFW), so it
# is named here. The CUDA runtime (libcudart) comes in the package (lib/facet/, above; found by
# dpkg-shlibdeps through the programs' $ORIGIN RPATH, so it adds no dependency); what a GPU needs
# besides is the driver, recommended, as is the viewer's panel font (it falls back to ImGui's own
# without it). CPack adds an ldconfig call for the library under lib/: harmless, as lib/facet/
# is on no loader path.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libgl1")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "libcuda1, fonts-dejavu-core")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS
    "python3-numpy, libglm-dev, libglfw3-dev, libegl-dev, libstb-dev, libtinygltf-dev, zlib1g-dev, pkgconf | pkg-config")
include(CPack)
