# The install as a user meets it (docs/guide.md, "Install"), one step per MODE:
#   stage     `cmake --install BUILD --prefix PREFIX` into the staging folder STAGE (DESTDIR);
#   consumer  tests/consumer configured and built against the staged package with
#             find_package(facet 0.2 REQUIRED), and run: a triangle rendered through the front
#             door into memory, its centre pixel checked;
#   pkgconfig the same program compiled and linked with `pkg-config --cflags --libs facet`;
#   render    the staged facet-render, run from a folder outside the checkout with the checkout
#             and the build tree hidden (a private mount namespace, where unshare allows one),
#             renders the default scene from the staged share/facet, the same bytes as the build
#             tree's facet-render; with every CUDA toolkit (/usr/local/cuda*) hidden too, every
#             staged program loads the CUDA runtime from the staged lib/facet/ (ldd);
#   deb       the Debian package built by CPack from the build tree (cpack -G DEB): its fields
#             (name, version, architecture, dependencies) and its file list read with dpkg-deb,
#             then extracted to a root of its own, whose facet-render prints the version and
#             renders the default scene from the package's share/facet;
#   clean     removes STAGE.
# STAGE lies outside the checkout and the build tree (see tests/CMakeLists.txt). SANITIZE is
# the build's FACET_SANITIZE: instrumented archives need the consumer built with it too.
cmake_minimum_required(VERSION 3.24)
set(prefix "${STAGE}${PREFIX}")
set(sanitize_flags)
if(SANITIZE)
  set(sanitize_flags "-fsanitize=${SANITIZE}")
endif()

function(run what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what} failed (${rc}):\n${ARGN}\n${out}\n${err}")
  endif()
  set(out "${out}${err}" PARENT_SCOPE)
endfunction()

# Every program in PROGRAMS that needs the CUDA runtime must load the one installed in the
# staged lib/facet/, as ldd shows it (in the render step with the checkout and CUDA hidden:
# ISOLATE and HIDE, see there). A CUDA build's programs link the shared runtime (the project's
# rule), so a check that finds no program needing it would prove nothing.
set(isolate)
set(hide "shift 2\n")
function(check_cuda_runtime programs)
  set(cudart_users 0)
  file(REAL_PATH "${prefix}" real_prefix)
  foreach(p IN LISTS programs)
    run("ldd ${p}" ${isolate} env -u LD_LIBRARY_PATH sh -c "${hide}ldd \"$1\"" sh "${SOURCE}" "${BUILD}" "${p}")
    if(out MATCHES "not found")
      message(FATAL_ERROR "${p} cannot find a library it needs:\n${out}")
    endif()
    if(out MATCHES "libcudart[^ ]* => ([^ ]+)")
      math(EXPR cudart_users "${cudart_users} + 1")
      file(REAL_PATH "${CMAKE_MATCH_1}" cudart)
      string(FIND "${cudart}" "${real_prefix}/" at)
      if(NOT at EQUAL 0 OR NOT cudart MATCHES "/facet/libcudart[^/]*$")
        message(FATAL_ERROR "${p} loads the CUDA runtime from ${cudart}, not from the staged install's lib/facet:\n${out}")
      endif()
      message(STATUS "${p}: CUDA runtime ${cudart}")
    endif()
  endforeach()
  if(HAVE_CUDA AND cudart_users EQUAL 0)
    message(FATAL_ERROR "no program of ${programs} needs the CUDA runtime library in this CUDA build "
                        "(linked statically?), so where it is loaded from went unchecked")
  endif()
endfunction()

if(MODE STREQUAL "stage")
  file(REMOVE_RECURSE "${STAGE}")
  run("cmake --install" "${CMAKE_COMMAND}" -E env "DESTDIR=${STAGE}"
      "${CMAKE_COMMAND}" --install "${BUILD}" --prefix "${PREFIX}")
  foreach(f bin/facet-render bin/facet-viewer bin/facet-bench bin/facet-scenegen include/facet/renderer.h
            include/facet/version.h share/facet/default_scene/scene.obj)
    if(NOT EXISTS "${prefix}/${f}")
      message(FATAL_ERROR "the install has no ${f} under ${prefix}")
    endif()
  endforeach()
  file(GLOB_RECURSE config "${prefix}/facetConfig.cmake")
  if(NOT config)
    message(FATAL_ERROR "the install has no facetConfig.cmake under ${prefix}")
  endif()
  message(STATUS "staged in ${prefix}")

elseif(MODE STREQUAL "consumer")
  set(work "${STAGE}-consumer")
  file(REMOVE_RECURSE "${work}")
  run("configuring the consumer" "${CMAKE_COMMAND}" -S "${SOURCE}/tests/consumer" -B "${work}" -G "${GENERATOR}"
      "-DCMAKE_CXX_COMPILER=${CXX}" -DCMAKE_BUILD_TYPE=Release "-DCMAKE_PREFIX_PATH=${prefix}"
      -DCMAKE_FIND_PACKAGE_NO_PACKAGE_REGISTRY=ON "-DCMAKE_CXX_FLAGS=${sanitize_flags}"
      "-DCMAKE_EXE_LINKER_FLAGS=${sanitize_flags}")
  run("building the consumer" "${CMAKE_COMMAND}" --build "${work}")
  run("running the consumer" "${work}/facet_consumer")
  message(STATUS "${out}")
  if(NOT out MATCHES "facet ${VERSION}, .*centre pixel ff0000ff")
    message(FATAL_ERROR "the consumer printed something else than version ${VERSION} and a red centre")
  endif()
  check_cuda_runtime("${work}/facet_consumer")
  file(REMOVE_RECURSE "${work}")

elseif(MODE STREQUAL "pkgconfig")
  find_program(pkg_config NAMES pkg-config pkgconf)
  if(NOT pkg_config)
    message(STATUS "skipped: no pkg-config on PATH")
    return()
  endif()
  file(GLOB pc_dirs "${prefix}/lib*/pkgconfig" "${prefix}/lib/*/pkgconfig")
  set(ENV{PKG_CONFIG_PATH} "${pc_dirs}")
  run("pkg-config" "${pkg_config}" --cflags --libs facet)
  separate_arguments(flags UNIX_COMMAND "${out}")
  run("pkg-config --modversion" "${pkg_config}" --modversion facet)
  if(NOT out MATCHES "^${VERSION}")
    message(FATAL_ERROR "pkg-config says facet is version ${out}, not ${VERSION}")
  endif()
  set(exe "${STAGE}-pkgconfig-consumer")
  run("compiling the consumer with pkg-config's flags" "${CXX}" -o "${exe}" "${SOURCE}/tests/consumer/main.cpp" ${flags} ${sanitize_flags})
  run("running the consumer" "${exe}")
  message(STATUS "${out}")
  if(NOT out MATCHES "centre pixel ff0000ff")
    message(FATAL_ERROR "the pkg-config consumer's centre pixel is not red")
  endif()
  check_cuda_runtime("${exe}")
  file(REMOVE "${exe}")

elseif(MODE STREQUAL "render")
  foreach(tree "${SOURCE}" "${BUILD}")
    string(FIND "${prefix}/" "${tree}/" inside)
    if(inside EQUAL 0)
      message(FATAL_ERROR "the staging folder ${prefix} lies inside ${tree}, which this test hides")
    endif()
  endforeach()
  # The checkout, the build tree and every CUDA toolkit (/usr/local/cuda*) are covered by empty
  # folders in a private mount namespace, so anything still read from them fails to open: the
  # programs must load the CUDA runtime installed beside them (lib/facet/, through their RPATH).
  # (Lines, not semicolons, separate the shell's commands: CMake would split its string there.)
  set(hide "for d in \"$1\" \"$2\" /usr/local/cuda*\ndo if [ -d \"$d\" ]\nthen mount -t tmpfs none \"$d\" || exit 97\nfi\ndone\nshift 2\n")
  execute_process(COMMAND unshare -rm true RESULT_VARIABLE can_unshare OUTPUT_QUIET ERROR_QUIET)
  set(isolate unshare -rm)
  if(NOT can_unshare EQUAL 0)
    message(STATUS "note: unshare cannot make a private mount namespace here, so the checkout and "
                   "the CUDA toolkit stay visible; the paths below show where things were read from")
    set(isolate)
    set(hide "shift 2\n")
  endif()
  file(GLOB programs "${prefix}/bin/*")
  check_cuda_runtime("${programs}")
  set(work "${STAGE}-render")
  file(REMOVE_RECURSE "${work}")
  file(MAKE_DIRECTORY "${work}")
  set(args --size 96x54 --light --stage cpu)
  run("the build tree's facet-render" "${BUILT_RENDER}" ${args} -o "${work}/built.png")
  string(CONCAT body "program=\"$2\"\ncd \"$1\" || exit 98\nshift 2\n"
         "env -u FACET_DATA_DIR \"$program\" --info | head -n 1 && env -u FACET_DATA_DIR \"$program\" \"$@\"")
  run("the installed facet-render with the checkout and CUDA hidden" ${isolate} env -u LD_LIBRARY_PATH
      sh -c "${hide}${body}" sh "${SOURCE}" "${BUILD}" "${work}" "${prefix}/bin/facet-render" ${args} -o installed.png)
  message(STATUS "${out}")
  string(REGEX REPLACE "\n.*" "" source "${out}")
  if(NOT source STREQUAL "${prefix}/share/facet/default_scene/scene.obj")
    message(FATAL_ERROR "the installed facet-render read the default scene from '${source}', "
                        "not from ${prefix}/share/facet")
  endif()
  if(NOT out MATCHES "wrote installed.png \\(96x54, 84913 triangles")
    message(FATAL_ERROR "the installed facet-render did not render the default scene")
  endif()
  run("comparing the pictures" "${CMAKE_COMMAND}" -E compare_files "${work}/built.png" "${work}/installed.png")
  file(REMOVE_RECURSE "${work}")

elseif(MODE STREQUAL "deb")
  set(work "${STAGE}-deb")
  file(REMOVE_RECURSE "${work}")
  file(MAKE_DIRECTORY "${work}")
  run("cpack -G DEB" cpack -G DEB --config "${BUILD}/CPackConfig.cmake" -B "${work}")
  file(GLOB debs "${work}/*.deb")
  list(LENGTH debs count)
  if(NOT count EQUAL 1)
    message(FATAL_ERROR "cpack -G DEB made ${count} packages in ${work}, not one: ${debs}")
  endif()
  run("dpkg-deb -f" dpkg-deb -f "${debs}" Package Version Architecture Depends Section)
  set(fields "${out}")
  foreach(want "Package: facet" "Version: ${VERSION}" "Architecture: amd64" "Section: graphics")
    string(FIND "${fields}" "${want}\n" at)
    if(at EQUAL -1)
      message(FATAL_ERROR "the package's control fields lack '${want}':\n${fields}")
    endif()
  endforeach()
  foreach(dependency libc6 libglfw3 libgl1)
    if(NOT fields MATCHES "Depends:[^\n]*${dependency}")
      message(FATAL_ERROR "the package does not depend on ${dependency}:\n${fields}")
    endif()
  endforeach()
  run("dpkg-deb -c" dpkg-deb -c "${debs}")
  foreach(file ./usr/bin/facet-render ./usr/bin/facet-viewer ./usr/share/facet/default_scene/scene.obj
               ./usr/include/facet/renderer.h ./usr/lib/cmake/facet/facetConfig.cmake)
    string(FIND "${out}" " ${file}\n" at)
    if(at EQUAL -1)
      message(FATAL_ERROR "the package does not hold ${file}:\n${out}")
    endif()
  endforeach()
  run("dpkg-deb -x" dpkg-deb -x "${debs}" "${work}/root")
  run("the packaged facet-render --version" env -u FACET_DATA_DIR "${work}/root/usr/bin/facet-render" --version)
  if(NOT out MATCHES "facet-render ${VERSION}")
    message(FATAL_ERROR "the packaged facet-render says '${out}', not version ${VERSION}")
  endif()
  run("the packaged facet-render" env -u FACET_DATA_DIR "${work}/root/usr/bin/facet-render" --size 96x54 --stage cpu
      -o "${work}/out.png")
  if(NOT out MATCHES "wrote .*out.png \\(96x54, 84913 triangles")
    message(FATAL_ERROR "the packaged facet-render did not render the default scene from its share/facet:\n${out}")
  endif()
  file(REMOVE_RECURSE "${work}")

elseif(MODE STREQUAL "clean")
  file(REMOVE_RECURSE "${STAGE}")
else()
  message(FATAL_ERROR "install_test.cmake: unknown MODE '${MODE}'")
endif()
