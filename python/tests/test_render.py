"""Pictures from Python are facet-render's, byte for byte; frames are NumPy arrays over the
engine's buffers or the caller's; models built from arrays and pickled models render."""
import pickle
import subprocess

import numpy as np
import pytest

import facet
from conftest import DEFAULT_SCENE

CASES = [
    dict(size=(320, 240), filter="trilinear", light=False, cull="none"),
    dict(size=(257, 131), filter="nearest", light=True, cull="back"),
    dict(size=(96, 160), filter="bilinear", light=False, cull="none"),
    dict(size=(160, 90), filter="trilinear", light=False, cull="none", msaa=4),
    dict(size=(160, 90), filter="trilinear", light=False, cull="none", view="overdraw"),
]


def render_with_cli(facet_render, tmp_path, w, h, extra):
    png, depth = tmp_path / "cli.png", tmp_path / "cli.depth"
    subprocess.run([str(facet_render), str(DEFAULT_SCENE), "--stage", "cpu", "--size", f"{w}x{h}", "-o", str(png),
                    "--depth", str(depth), *extra], check=True, capture_output=True)
    return png.read_bytes(), np.fromfile(depth, dtype="<f4").reshape(h, w)


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c['size'][0]}x{c['size'][1]}-{c['filter']}-msaa{c.get('msaa', 1)}-{c.get('view', 'shaded')}")
def test_default_camera_matches_facet_render(facet_render, scene, tmp_path, case):
    (w, h) = case["size"]
    extra = ["--filter", case["filter"], "--cull", case["cull"]] + (["--light"] if case["light"] else [])
    extra += ["--msaa", str(case["msaa"])] if "msaa" in case else []
    extra += ["--view", case["view"]] if "view" in case else []
    cli_png, cli_depth = render_with_cli(facet_render, tmp_path, w, h, extra)

    frame = facet.Renderer(stage="cpu").render(scene, facet.Camera.framing(scene, w / h), **case)
    png = tmp_path / "python.png"
    facet.write_png(png, frame.color)
    assert png.read_bytes() == cli_png
    assert np.array_equal(frame.color, facet.read_image(tmp_path / "cli.png"))
    assert frame.depth.tobytes() == cli_depth.tobytes()


def test_explicit_camera_matches_facet_render(facet_render, scene, tmp_path):
    w, h = 200, 150
    cli_png, cli_depth = render_with_cli(facet_render, tmp_path, w, h, [
        "--eye", "3,4,12", "--yaw", "10", "--pitch", "-12.5", "--fov", "50", "--near", "0.5", "--far", "80"])
    camera = facet.Camera(eye=(3, 4, 12), yaw=10, pitch=-12.5, fov=50, near=0.5, far=80)
    frame = facet.Renderer(stage="cpu").render(scene, camera, size=(w, h))
    assert np.array_equal(frame.color, facet.read_image(tmp_path / "cli.png"))
    assert frame.depth.tobytes() == cli_depth.tobytes()


def test_frame_is_arrays_over_the_engine_buffers(scene):
    renderer = facet.Renderer(stage="cpu", threads=1)
    frame = renderer.render(scene, facet.Camera.framing(scene, 4 / 3), size=(64, 48))
    assert frame.color.shape == (48, 64, 4) and frame.color.dtype == np.uint8
    assert frame.depth.shape == (48, 64) and frame.depth.dtype == np.float32
    assert frame.color.flags.c_contiguous and frame.color.flags.writeable
    assert frame.stats.triangles_in == scene.triangle_count and frame.stats.frame_ms > 0
    assert frame.stats.placement == "vertex cpu, raster cpu"
    color = frame.color
    del frame, renderer  # the arrays keep their buffers
    assert color[24, 32, 3] == 255


def test_render_into_out_arrays(scene):
    renderer = facet.Renderer(stage="cpu")
    camera = facet.Camera.framing(scene, 2.0)
    fresh = renderer.render(scene, camera, size=(80, 40))
    color, depth = np.zeros((40, 80, 4), np.uint8), np.zeros((40, 80), np.float32)
    frame = renderer.render(scene, camera, size=(80, 40), out=(color, depth))
    assert np.shares_memory(frame.color, color) and np.shares_memory(frame.depth, depth)
    assert np.array_equal(color, fresh.color) and np.array_equal(depth, fresh.depth)
    again = renderer.render(scene, camera, size=(80, 40), out=fresh)
    assert np.shares_memory(again.color, fresh.color)


def quad(**extra):
    positions = np.array([[-1, -1, 0], [1, -1, 0], [1, 1, 0], [-1, 1, 0]], np.float32)
    triangles = np.array([[0, 1, 2], [0, 2, 3]], np.uint32)
    return facet.Model.from_arrays(positions, triangles, **extra)


def test_model_from_arrays_renders_its_material_colour_texture_and_vertex_colours():
    camera = facet.Camera(eye=(0, 0, 3), near=0.1, far=10)
    renderer = facet.Renderer(stage="cpu")
    classic = dict(size=(32, 32), shading="classic")  # unlit: the colours exactly
    grey = renderer.render(quad(), camera, **classic).color
    assert tuple(grey[16, 16]) == (204, 204, 204, 255)  # the default material, Kd 0.8
    red = np.zeros((4, 4, 3), np.uint8)
    red[..., 0] = 255
    uv = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32)
    textured = renderer.render(quad(uv=uv, texture=red), camera, filter="nearest", **classic).color
    assert tuple(textured[16, 16]) == (255, 0, 0, 255)
    colors = np.tile(np.array([[0, 1, 0]], np.float32), (4, 1))
    green = renderer.render(quad(colors=colors), camera, **classic).color
    assert tuple(green[16, 16]) == (0, 204, 0, 255)
    # Lit (the default), a face seen square on under the default lights shows the texture's own
    # colour (its material's Kd is 1, not the untextured default's 0.8), within a step or two.
    r, g, b, a = renderer.render(quad(uv=uv, texture=red), camera, size=(32, 32), filter="nearest").color[16, 16]
    assert r >= 250 and (g, b, a) == (0, 0, 255), (r, g, b, a)


def test_model_and_camera_pickle(scene):
    camera = facet.Camera(eye=(1, 2, 14), yaw=5, pitch=-10, fov=55, near=0.5, far=90)
    model = pickle.loads(pickle.dumps(scene))
    assert (model.vertex_count, model.triangle_count, model.source) == (scene.vertex_count, scene.triangle_count,
                                                                         scene.source)
    assert repr(pickle.loads(pickle.dumps(camera))) == repr(camera)
    renderer = facet.Renderer(stage="cpu")
    a = renderer.render(scene, camera, size=(96, 64)).color
    b = renderer.render(model, pickle.loads(pickle.dumps(camera)), size=(96, 64)).color
    assert np.array_equal(a, b)


def test_look_at_points_the_camera_at_the_target():
    camera = facet.Camera.look_at(eye=(1, 2, 3), target=(4, 0, -2), up=(0, 5, 0))
    direction = np.array([3, -2, -5], np.float32) / np.linalg.norm([3, -2, -5])
    assert np.allclose(camera.forward, direction, atol=1e-6)
    assert abs(camera.right[1]) < 1e-7
    rotation = camera.rotation
    assert np.allclose(rotation @ rotation.T, np.eye(3), atol=1e-6)
    assert np.allclose(rotation[2], direction, atol=1e-6)
    # Any up since #26 (tests/test_camera.py): a rolled one is the picture's up, as glm::lookAt's.
    rolled = facet.Camera.look_at(eye=(0, 0, 0), target=(0, 0, -1), up=(1, 1, 0))
    assert np.allclose(rolled.up, np.array([1, 1, 0]) / np.sqrt(2), atol=1e-6)
    with pytest.raises(ValueError, match="parallel to the view direction"):
        facet.Camera.look_at(eye=(0, 0, 0), target=(0, -1, 0))


def test_background_and_shading_keywords(scene):
    renderer = facet.Renderer(stage="cpu")
    camera = facet.Camera.framing(scene, 64 / 48)
    frame = renderer.render(scene, camera, size=(64, 48), background=(1, 0.5, 0, 0))
    assert tuple(frame.color[0, 0]) == (255, 128, 0, 0)  # a transparent corner, its colour kept
    assert (frame.color[..., 3] == 255).any()  # the scene drawn opaque over it
    lit = renderer.render(scene, camera, size=(64, 48)).color
    assert np.array_equal(lit, renderer.render(scene, camera, size=(64, 48), shading="lit").color)
    assert not np.array_equal(lit, renderer.render(scene, camera, size=(64, 48), shading="classic").color)
    for bad in [(1, 0), (0, 0, 2), (0, 0, 0, 0, 0), "red", (0, 0, float("nan"))]:
        with pytest.raises(ValueError, match="background must be"):
            renderer.render(scene, camera, size=(8, 8), background=bad)
    with pytest.raises(ValueError, match="shading must be"):
        renderer.render(scene, camera, size=(8, 8), shading="phong")
