"""Bad input is refused with what was expected: arrays of the wrong dtype, shape or layout
(never converted silently), files the loader rejects (with file and line), settings and
placements the renderer does not have. Loader warnings are Python warnings at their line."""
import warnings

import numpy as np
import pytest

import facet

R = np.eye(3, dtype=np.float32)
SHIFT = np.array([0, 0, 10], np.float32)


def test_load_rejects_with_file_and_line(tmp_path):
    bad = tmp_path / "bad.obj"
    bad.write_text("v 0 0 0\nv 1 0 0\nv 0 1 nan0\nf 1 2 3\n")
    with pytest.raises(facet.ParseError) as caught:
        facet.load(bad)
    assert caught.value.file == str(bad) and caught.value.line == 3
    assert f"{bad}:3:" in str(caught.value)
    with pytest.raises(facet.Error, match="missing.obj"):
        facet.load(tmp_path / "missing.obj")
    with pytest.raises(facet.ParseError, match="extension"):
        facet.load(tmp_path / "mesh.xyz")


def test_load_warnings_are_python_warnings_at_their_line(tmp_path):
    mesh = tmp_path / "warned.obj"
    mesh.write_text("mtllib nothere.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\nusemtl x\nf 1 2 3\n")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        model = facet.load(mesh)
    assert [(w.category, w.filename, w.lineno) for w in caught] == [
        (facet.LoadWarning, str(mesh), 1), (facet.LoadWarning, str(mesh), 5)]
    assert "nothere.mtl" in str(caught[0].message)
    assert len(model.warnings) == 2 and model.triangle_count == 1
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(facet.LoadWarning):
            facet.load(mesh)


@pytest.mark.parametrize("vertices, error, words", [
    (np.zeros((10, 3), np.float64), TypeError, "float32 array of shape (N, 3), got float64"),
    ([[0.0, 0.0, 1.0]], TypeError, "got list"),
    (np.zeros((10, 3), ">f4"), TypeError, "float32"),
    (np.zeros((10, 4), np.float32), ValueError, "shape (N, 3), got float32 array of shape (10, 4)"),
    (np.zeros((30,), np.float32), ValueError, "shape (N, 3)"),
    (np.zeros((20, 3), np.float32)[::2], ValueError, "non-contiguous"),
    (np.zeros((3, 10), np.float32).T, ValueError, "non-contiguous"),
])
def test_project_refuses_arrays_it_would_have_to_convert(vertices, error, words):
    with pytest.raises(error) as caught:
        facet.project(vertices, R, SHIFT, 5.0)
    assert words in str(caught.value) and "vertices" in str(caught.value)


def test_project_refuses_bad_out_and_parameters():
    v = np.zeros((10, 3), np.float32)
    with pytest.raises(ValueError, match=r"out must be .*shape \(10, 3\)"):
        facet.project(v, R, SHIFT, 5.0, out=np.zeros((9, 3), np.float32))
    read_only = np.zeros((10, 3), np.float32)
    read_only.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        facet.project(v, R, SHIFT, 5.0, out=read_only)
    with pytest.raises(TypeError, match="float32"):
        facet.project(v, R, SHIFT, 5.0, out=np.zeros((10, 3)))
    with pytest.raises(ValueError, match=r"R must be an array of shape \(3, 3\)"):
        facet.project(v, np.eye(4), SHIFT, 5.0)
    with pytest.raises(ValueError, match=r"shift must be an array of shape \(3,\)"):
        facet.project(v, R, [0, 0], 5.0)
    rows = np.zeros((11, 3), np.float32)
    with pytest.raises(ValueError, match="overlaps"):
        facet.project(rows[:10], R, SHIFT, 5.0, out=rows[1:])
    with pytest.raises(ValueError, match="'cpu' or 'gpu'"):
        facet.project(v, R, SHIFT, 5.0, on="tpu")


def gpu_reason():
    return facet.Renderer(stage="cpu").gpu_unavailable


def test_gpu_requests_without_a_gpu_say_why():
    reason = gpu_reason()
    if not reason:
        pytest.skip("a GPU is usable here: the refusals this test checks do not happen")
    with pytest.raises(facet.Error, match="GPU"):
        facet.project(np.zeros((4, 3), np.float32), R, SHIFT, 5.0, on="gpu")
    with pytest.raises(facet.Error):
        facet.Renderer(vertex="gpu")
    assert facet.Renderer().placement == "vertex cpu, raster cpu" and facet.Renderer().note


def test_from_arrays_refuses_bad_arrays():
    p = np.zeros((3, 3), np.float32)
    t = np.array([[0, 1, 2]], np.uint32)
    with pytest.raises(TypeError, match=r"triangles must be a C-contiguous uint32 array of shape \(N, 3\), got int64"):
        facet.Model.from_arrays(p, t.astype(np.int64))
    with pytest.raises(ValueError, match="index"):
        facet.Model.from_arrays(p, np.array([[0, 1, 3]], np.uint32))
    with pytest.raises(ValueError, match=r"uv must be .*shape \(3, 2\)"):
        facet.Model.from_arrays(p, t, uv=np.zeros((4, 2), np.float32))
    with pytest.raises(ValueError, match=r"\(H, W, 3\) or \(H, W, 4\)"):
        facet.Model.from_arrays(p, t, uv=np.zeros((3, 2), np.float32), texture=np.zeros((4, 4, 2), np.uint8))
    with pytest.warns(facet.LoadWarning, match="without uv"):
        facet.Model.from_arrays(p, t, texture=np.zeros((4, 4, 3), np.uint8))


@pytest.mark.parametrize("keyword, value, words", [
    ("filter", "cubic", "filter must be nearest, bilinear or trilinear, got 'cubic'"),
    ("cull", "front", "cull must be none or back"),
    ("light", "sun", "light must be True"),
    ("msaa", 3, "msaa must be 1, 2, 4 or 8, got 3"),
    ("view", "heat", "view must be shaded, normals, depth, uv, overdraw, wireframe, triangles or tiles, got 'heat'"),
    ("size", (0, 10), "size width expects a whole number from 1 to 16384, got '0'"),
])
def test_render_refuses_settings_it_does_not_have(scene, keyword, value, words):
    with pytest.raises(ValueError) as caught:
        facet.Renderer(stage="cpu").render(scene, facet.Camera(eye=(0, 0, 30)), **{keyword: value})
    assert words in str(caught.value)


def test_render_refuses_bad_out_and_placements(scene):
    renderer = facet.Renderer(stage="cpu")
    camera = facet.Camera(eye=(0, 0, 30))
    with pytest.raises(TypeError, match="uint8"):
        renderer.render(scene, camera, size=(8, 4), out=(np.zeros((4, 8, 4), np.float32), np.zeros((4, 8), np.float32)))
    with pytest.raises(ValueError, match=r"out depth must be .*shape \(4, 8\)"):
        renderer.render(scene, camera, size=(8, 4), out=(np.zeros((4, 8, 4), np.uint8), np.zeros((8, 4), np.float32)))
    with pytest.raises(TypeError, match="facet.Frame or a"):
        renderer.render(scene, camera, size=(8, 4), out=np.zeros((4, 8, 4), np.uint8))
    with pytest.raises(ValueError, match="stage must be auto, cpu, gpu, gl or kernels"):
        facet.Renderer(stage="vulkan")
    with pytest.raises(ValueError, match="vertex must be auto, cpu or gpu, got 'tpu'"):
        facet.Renderer(vertex="tpu")
    with pytest.raises(ValueError, match="threads"):
        facet.Renderer(threads=0)
    with pytest.raises(ValueError, match="fov"):
        facet.Camera(fov=180)


def test_gpus_lists_the_devices_or_says_why_none():
    lines = facet.gpus()
    assert lines and all(isinstance(line, str) for line in lines)
    if gpu_reason():
        assert lines[0].startswith("none: ")
