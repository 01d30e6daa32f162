#!/usr/bin/env python3
"""Writes the glTF fuzzer's seeds (tests/fuzz/seeds/glb): tiny .glb files reaching the reader's
branches: indexed and non-indexed triangles, strips and fans, u8/u16/u32 indices, a sparse
accessor, a byteStride, normalized colours and texture coordinates, a node tree (TRS and
matrix), a material with an embedded PNG, an external buffer and image (the scratch folder's
fuzz.bin and fuzz.png), cameras. Run again only to change them."""
import json
import os
import struct
import zlib

out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "seeds", "glb")
os.makedirs(out, exist_ok=True)


def png():
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    raw = b"".join(b"\0" + bytes([255, 0, 0, 255, 0, 0, 255, 128]) for _ in range(2))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 2, 2, 8, 6, 0, 0, 0)) +
            chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


class Glb:
    def __init__(self):
        self.bin = b""
        self.doc = {"asset": {"version": "2.0"}, "bufferViews": [], "accessors": []}

    def view(self, data, stride=None):
        self.bin += b"\0" * (-len(self.bin) % 4)
        v = {"buffer": 0, "byteOffset": len(self.bin), "byteLength": len(data)}
        if stride:
            v["byteStride"] = stride
        self.bin += data
        self.doc["bufferViews"].append(v)
        return len(self.doc["bufferViews"]) - 1

    def accessor(self, view, component, count, kind, **more):
        a = {"componentType": component, "count": count, "type": kind, **more}
        if view is not None:
            a["bufferView"] = view
        self.doc["accessors"].append(a)
        return len(self.doc["accessors"]) - 1

    def write(self, name, **doc):
        self.doc.update(doc)
        self.bin += b"\0" * (-len(self.bin) % 4)
        self.doc["buffers"] = [{"byteLength": len(self.bin)}] + self.doc.get("buffers", [])
        text = json.dumps(self.doc, separators=(",", ":")).encode()
        text += b" " * (-len(text) % 4)
        chunks = struct.pack("<II", len(text), 0x4E4F534A) + text + struct.pack("<II", len(self.bin), 0x004E4942) + self.bin
        with open(os.path.join(out, name), "wb") as f:
            f.write(struct.pack("<III", 0x46546C67, 2, 12 + len(chunks)) + chunks)


def floats(*v):
    return struct.pack("<%df" % len(v), *v)


SQUARE = floats(0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0)

g = Glb()
p = g.accessor(g.view(SQUARE), 5126, 4, "VEC3", min=[0, 0, 0], max=[1, 1, 0])
i = g.accessor(g.view(struct.pack("<6H", 0, 1, 2, 2, 1, 3)), 5123, 6, "SCALAR")
g.write("indexed_u16.glb", meshes=[{"primitives": [{"attributes": {"POSITION": p}, "indices": i}]}],
        nodes=[{"mesh": 0, "translation": [1, 2, 3], "rotation": [0, 0, 0.7071, 0.7071], "scale": [2, 2, 2]}],
        scenes=[{"nodes": [0]}], scene=0)

g = Glb()
p = g.accessor(g.view(SQUARE), 5126, 4, "VEC3")
i8 = g.accessor(g.view(bytes([0, 1, 2, 3])), 5121, 4, "SCALAR")
i32 = g.accessor(g.view(struct.pack("<4I", 0, 1, 3, 2)), 5125, 4, "SCALAR")
g.write("strip_fan_u8_u32.glb", meshes=[{"name": "modes", "primitives": [
    {"attributes": {"POSITION": p}, "indices": i8, "mode": 5},
    {"attributes": {"POSITION": p}, "indices": i32, "mode": 6},
    {"attributes": {"POSITION": p}, "mode": 0}]}],
    nodes=[{"children": [1]}, {"mesh": 0, "matrix": [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 4, 5, 6, 1]}],
    scenes=[{"nodes": [0]}])

g = Glb()
base = g.view(SQUARE)
si = g.view(struct.pack("<2H", 1, 3))
sv = g.view(floats(1, 0, 2, 1, 1, 3))
p = g.accessor(base, 5126, 4, "VEC3", sparse={"count": 2, "indices": {"bufferView": si, "componentType": 5123},
                                             "values": {"bufferView": sv}})
z = g.accessor(None, 5126, 3, "VEC3", sparse={"count": 1, "indices": {"bufferView": si, "componentType": 5123},
                                              "values": {"bufferView": sv}})
g.write("sparse.glb", meshes=[{"primitives": [{"attributes": {"POSITION": p}, "mode": 5},
                                              {"attributes": {"POSITION": z}}]}],
        nodes=[{"mesh": 0}])

g = Glb()
# Interleaved position (12 bytes), normal (12) and colour (u8 x4 normalized) and uv (u16 x2 normalized): stride 32.
inter = b""
for x, y in [(0, 0), (1, 0), (0, 1), (1, 1)]:
    inter += floats(x, y, 0, 0, 0, 1) + bytes([255, 128, 0, 255]) + struct.pack("<2H", x * 65535, y * 65535)
v = g.view(inter, stride=32)
p = g.accessor(v, 5126, 4, "VEC3")
n = g.accessor(v, 5126, 4, "VEC3", byteOffset=12)
c = g.accessor(v, 5121, 4, "VEC4", byteOffset=24, normalized=True)
t = g.accessor(v, 5123, 4, "VEC2", byteOffset=28, normalized=True)
tan = g.accessor(g.view(floats(*([1, 0, 0, 1] * 4))), 5126, 4, "VEC4")
img = g.view(png())
g.write("textured_interleaved.glb",
        meshes=[{"primitives": [{"attributes": {"POSITION": p, "NORMAL": n, "COLOR_0": c, "TEXCOORD_0": t, "TANGENT": tan},
                                 "mode": 5, "material": 0}]}],
        materials=[{"name": "m", "alphaMode": "MASK", "alphaCutoff": 0.3, "doubleSided": True,
                    "pbrMetallicRoughness": {"baseColorFactor": [1, 0.5, 0.2, 0.8], "metallicFactor": 0.2,
                                             "roughnessFactor": 0.4, "baseColorTexture": {"index": 0},
                                             "metallicRoughnessTexture": {"index": 1}},
                    "normalTexture": {"index": 0, "scale": 0.5}, "occlusionTexture": {"index": 1, "strength": 0.7},
                    "emissiveTexture": {"index": 0, "texCoord": 1,
                                        "extensions": {"KHR_texture_transform": {"scale": [2, 2]}}},
                    "emissiveFactor": [1, 1, 1],
                    "extensions": {"KHR_materials_emissive_strength": {"emissiveStrength": 2}}}],
        textures=[{"source": 0, "sampler": 0}, {"source": 1}],
        samplers=[{"wrapS": 33071, "wrapT": 33648}],
        images=[{"bufferView": img, "mimeType": "image/png"}, {"uri": "fuzz.png"}],
        extensionsUsed=["KHR_texture_transform", "KHR_materials_emissive_strength"],
        cameras=[{"type": "perspective", "perspective": {"yfov": 0.8, "znear": 0.1}},
                 {"type": "orthographic", "orthographic": {"xmag": 1, "ymag": 1, "znear": 0.1, "zfar": 10}}],
        nodes=[{"mesh": 0}, {"camera": 0, "translation": [0, 0, 5]}, {"camera": 1}],
        scenes=[{"nodes": [0, 1, 2]}])

g = Glb()
g.view(floats(0))
g.doc["bufferViews"].append({"buffer": 1, "byteLength": 48})
p = g.accessor(1, 5126, 4, "VEC3")
g.write("external_buffer.glb", meshes=[{"primitives": [{"attributes": {"POSITION": p}, "mode": 5}]}],
        buffers=[{"byteLength": 64, "uri": "fuzz.bin"}],
        nodes=[{"mesh": 0}])
