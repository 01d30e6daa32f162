"""facet.project is the seed's render_all_verts: the same numbers as its NumPy code."""
import numpy as np
import pytest

import facet


def seed(v, R, shift, focus):
    d = (v - shift) @ R.T
    d[:, :2] *= focus / np.abs(d[:, 2:3])
    return d


@pytest.mark.parametrize("n", [0, 1, 7, 1000, 100_003])
def test_project_agrees_with_the_seed(n):
    rng = np.random.default_rng(n)
    v = rng.uniform(-50, 50, (n, 3)).astype(np.float32)
    shift = np.array([0, 0, 10], np.float32)
    identity = np.eye(3, dtype=np.float32)
    assert np.array_equal(facet.project(v, identity, shift, 5.0), seed(v, identity, shift, np.float32(5)))
    camera = facet.Camera(eye=(1, 2, 3), yaw=30, pitch=-20)
    R, eye = camera.rotation, np.array(camera.eye, np.float32)
    got = facet.project(v, R, eye, camera.focus)
    assert got.shape == (n, 3) and got.dtype == np.float32
    np.testing.assert_allclose(got, seed(v, R, eye, np.float32(camera.focus)), rtol=2e-5, atol=1e-4)


def test_project_writes_out_and_works_in_place():
    v = np.random.default_rng(1).uniform(-5, 5, (5000, 3)).astype(np.float32)
    R, shift = facet.Camera(yaw=10).rotation, np.array([0, 0, 20], np.float32)
    expected = facet.project(v, R, shift, 2.0)
    out = np.empty_like(v)
    assert facet.project(v, R, shift, 2.0, out) is out
    assert np.array_equal(out, expected)
    assert facet.project(v, R, shift, 2.0, out=v) is v
    assert np.array_equal(v, expected)


def test_small_parameters_of_any_real_dtype():
    v = np.ones((4, 3), np.float32)
    a = facet.project(v, np.eye(3), [0.0, 0.0, -1.0], 2)
    b = facet.project(v, np.eye(3, dtype=np.float32), np.array([0, 0, -1], np.float32), 2.0)
    assert np.array_equal(a, b)


def test_the_seed_example_agrees_and_times_both():
    import os
    import subprocess
    import sys

    from conftest import ROOT

    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    done = subprocess.run([sys.executable, str(ROOT / "examples" / "seed_render_all_verts.py"), "--calls", "3"],
                          capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "agree: 1000 vertices" in done.stdout and "facet.project:" in done.stdout


def test_project_takes_its_arguments_as_a_python_function_would():
    import inspect

    v = np.random.default_rng(2).uniform(-5, 5, (40, 3)).astype(np.float32)
    R, shift = facet.Camera(yaw=10).rotation, np.array([0, 0, 20], np.float32)
    expected = facet.project(v, R, shift, 2.0)
    out = np.empty_like(v)
    assert facet.project(vertices=v, R=R, shift=shift, focus=np.float32(2), out=out, on="cpu", device=None) is out
    assert np.array_equal(out, expected)
    assert np.array_equal(facet.project(v, R, shift=shift, focus=2), expected)
    assert list(inspect.signature(facet.project).parameters) == ["vertices", "R", "shift", "focus", "out", "on",
                                                                 "device"]
    for call, words in [(lambda: facet.project(v, R, shift), "missing required argument 'focus'"),
                        (lambda: facet.project(v, R, shift, 2.0, out, "cpu"), "from 4 to 5 positional"),
                        (lambda: facet.project(v, R, shift, 2.0, colour=1), "unexpected keyword argument 'colour'"),
                        (lambda: facet.project(v, R, shift, 2.0, R=R), "multiple values for argument 'R'"),
                        (lambda: facet.project(v, R, shift, "2"), "focus must be a real number, got str"),
                        (lambda: facet.project(v, R, shift, 2.0, on=1), "on must be 'cpu' or 'gpu'"),
                        (lambda: facet.project(v, R, shift, 2.0, device=1.5), "device must be")]:
        with pytest.raises(TypeError, match=words):
            call()


@pytest.mark.parametrize("isa", ["scalar", "avx2", "avx512"])
def test_project_is_the_same_on_every_vector_path(isa):
    """FACET_ISA (read when facet is imported) picks the CPU path; each gives the same numbers,
    through every head and tail of the rows' blocks (the scalar path once returned garbage)."""
    import os
    import subprocess
    import sys

    code = ("import numpy as np, facet, sys\n"
            "rng = np.random.default_rng(4)\n"
            "R, s = facet.Camera(yaw=25, pitch=10).rotation, np.array([1, 2, 30], np.float32)\n"
            "for n in (1, 15, 16, 17, 1000):\n"
            "    v = rng.uniform(-50, 50, (n + 5, 3)).astype(np.float32)[5:]\n"
            "    sys.stdout.buffer.write(facet.project(v, R, s, 5.0).tobytes())\n")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    runs = {}
    for name in ("scalar", isa):
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, env=dict(env, FACET_ISA=name),
                              timeout=120)
        if done.returncode != 0 and b"does not support" in done.stderr:
            pytest.skip(f"this CPU does not support FACET_ISA={name}")
        assert done.returncode == 0, done.stderr.decode()
        runs[name] = done.stdout
    assert runs[isa] == runs["scalar"]
    assert len(runs["scalar"]) == 4 * 3 * (1 + 15 + 16 + 17 + 1000)
    # And the numbers are the seed's (so the scalar path is checked against NumPy, not itself).
    rng = np.random.default_rng(4)
    R, s = facet.Camera(yaw=25, pitch=10).rotation, np.array([1, 2, 30], np.float32)
    expected = [seed(rng.uniform(-50, 50, (n + 5, 3)).astype(np.float32)[5:], R, s, np.float32(5.0))
                for n in (1, 15, 16, 17, 1000)]
    got = np.frombuffer(runs[isa], np.float32).reshape(-1, 3)
    np.testing.assert_allclose(got, np.concatenate(expected), rtol=2e-5, atol=1e-4)
