"""Several threads render (and project) at once: each Renderer's pictures are the ones a
single thread gets, whether threads share one Renderer or each has its own."""
import sys
import threading
import time

import numpy as np

import facet


def turntable(scene, count):
    base = facet.Camera.framing(scene, 4 / 3)
    return [facet.Camera(eye=base.eye, yaw=base.yaw + 360 * i / count, pitch=base.pitch, fov=base.fov,
                         near=base.near, far=base.far) for i in range(count)]


def run_threads(count, work):
    errors, threads = [], []

    def guarded(i):
        try:
            work(i)
        except BaseException as e:  # reported below, so a failing thread fails the test
            errors.append(e)

    for i in range(count):
        threads.append(threading.Thread(target=guarded, args=(i,)))
        threads[-1].start()
    for t in threads:
        t.join()
    assert not errors, errors


def test_threads_with_their_own_renderers_and_one_shared(scene):
    cameras = turntable(scene, 4)
    expected = [facet.Renderer(stage="cpu").render(scene, c, size=(120, 90)).color for c in cameras]
    own = [None] * 4
    shared_renderer, shared = facet.Renderer(stage="cpu"), [None] * 4

    def work(i):
        renderer = facet.Renderer(stage="cpu", threads=1)
        for _ in range(3):
            own[i] = renderer.render(scene, cameras[i], size=(120, 90)).color
            shared[i] = shared_renderer.render(scene, cameras[i], size=(120, 90)).color

    run_threads(4, work)
    for i in range(4):
        assert np.array_equal(own[i], expected[i]) and np.array_equal(shared[i], expected[i])


def test_threads_alternating_models_on_one_renderer(scene):
    quad = facet.Model.from_arrays(np.array([[-1, -1, 0], [1, -1, 0], [1, 1, 0]], np.float32),
                                   np.array([[0, 1, 2]], np.uint32))
    camera = facet.Camera(eye=(0, 0, 3))
    renderer = facet.Renderer(stage="cpu")
    expected = {id(m): renderer.render(m, camera, size=(40, 30)).color for m in (scene, quad)}
    results = []

    def work(i):
        for _ in range(5):
            model = scene if i % 2 else quad
            results.append((id(model), renderer.render(model, camera, size=(40, 30)).color))

    run_threads(4, work)
    assert len(results) == 20
    assert all(np.array_equal(color, expected[key]) for key, color in results)


def test_threads_projecting_at_once():
    rng = np.random.default_rng(3)
    inputs = [rng.uniform(-50, 50, (200_000, 3)).astype(np.float32) for _ in range(4)]
    R, shift = facet.Camera(yaw=20).rotation, np.array([0, 0, 10], np.float32)
    expected = [facet.project(v, R, shift, 5.0) for v in inputs]
    got = [None] * 4
    run_threads(4, lambda i: got.__setitem__(i, facet.project(inputs[i], R, shift, 5.0)))
    assert all(np.array_equal(a, b) for a, b in zip(got, expected))


def python_runs_during(call):
    """How often this thread's Python ran while another thread was inside `call`. With a long
    switch interval, a call that kept the GIL would let this thread run only after it returned
    (and the other thread had finished); one that releases it lets this thread count until the
    call wants the GIL back."""
    inside, done, count = threading.Event(), threading.Event(), 0

    def work():
        inside.set()
        call()
        done.set()

    interval = sys.getswitchinterval()
    sys.setswitchinterval(0.5)
    try:
        thread = threading.Thread(target=work)
        thread.start()
        inside.wait()
        while not done.is_set():
            count += 1
        thread.join()
    finally:
        sys.setswitchinterval(interval)
    return count


def test_rendering_and_projecting_release_the_gil(scene):
    renderer = facet.Renderer(stage="cpu", threads=1)
    camera = facet.Camera.framing(scene, 16 / 9)
    assert python_runs_during(lambda: renderer.render(scene, camera, size=(1920, 1080))) > 1000
    v = np.zeros((4_000_000, 3), np.float32)
    assert python_runs_during(lambda: facet.project(v, np.eye(3), [0, 0, -1], 1.0, out=v)) > 1000


def test_threads_render_a_scene_another_thread_moves():
    # A scene is read as it is when render() is called: moving an instance meanwhile, on the
    # main thread, changes a later picture, never one being drawn (each is one of the two).
    quad = facet.Model.from_arrays(np.array([[-1, -1, 0], [1, -1, 0], [1, 1, 0], [-1, 1, 0]], np.float32),
                                   np.array([[0, 1, 2], [0, 2, 3]], np.uint32))
    scene = facet.Scene()
    moved = scene.add(quad)
    scene.add(quad, [[1, 0, 0, 0], [0, 1, 0, 2.5], [0, 0, 1, 0], [0, 0, 0, 1]])
    camera = facet.Camera(eye=(0, 1, 9))
    here, there = np.eye(4), np.eye(4)
    there[0, 3] = 2
    pictures = []
    for pose in (here, there):
        scene.set_pose(moved, pose)
        pictures.append(facet.Renderer(stage="cpu").render(scene, camera, size=(48, 36)).color.tobytes())
    shared = facet.Renderer(stage="cpu")
    stop = threading.Event()

    def work(i):
        if i == 0:  # the mover
            for step in range(300):
                scene.set_pose(moved, there if step % 2 else here)
                time.sleep(0.0005)  # lets the renderers' threads run between moves
            stop.set()
            return
        renderer = shared if i % 2 else facet.Renderer(stage="cpu", threads=1)
        drawn = 0
        while not stop.is_set() or drawn < 3:
            assert renderer.render(scene, camera, size=(48, 36)).color.tobytes() in pictures
            drawn += 1

    run_threads(5, work)
