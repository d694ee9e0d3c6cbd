"""Decode one image item of a HEIF (a gain map) independently of heic2jpg and libheif.

    gainmap_reference.py SOURCE ITEM OUT.npy

Used by Scripts/ultrahdr-check as the reference decode of the gain map an Ultra HDR
output was made from: libheif 1.15 reaches no gain map that is only an input of a
`tmap` item, and cannot read some files at all (an iPhone's `cdsc` to its `tmap`).

What it does (ISO/IEC 23008-12, ISO/IEC 14496-12, ITU-T H.273):
  * reads `iinf`, `iref`, `ipco`/`ipma`, `iloc` and `idat` with its own parser (the box
    walk of heif_add_irot.py beside it);
  * decodes a coded item with ffmpeg: AV1 (`av01`) as its OBUs after a temporal
    delimiter, HEVC (`hvc1`) as Annex B with the `hvcC` parameter sets; a `grid` by its
    tiles, placed and cropped to the descriptor's size;
  * brings samples to 8 bits as v * 255 / (2^bits - 1), rounded (or, `precise`, to
    floats 0..1 at the stream's own bit depth); colour to RGB with the item's `colr` nclx
    matrix and range (else the bitstream's), chroma repeated;
  * applies `irot` (anticlockwise) and `imir` (axis 0: rows reversed, 1: columns) in
    `ipma` order; refuses `clap`.
Writes an 8-bit array (height x width, or x 3 for colour) with numpy.
"""

import os
import struct
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import heif_add_irot as boxes  # noqa: E402  (the box walk; only the standard library)

# Kr, Kb by H.273 matrix_coefficients; 2 (unspecified) is BT.601, as libavif and libheif read it.
MATRICES = {1: (0.2126, 0.0722), 2: (0.299, 0.114), 5: (0.299, 0.114), 6: (0.299, 0.114), 9: (0.2627, 0.0593)}


class Meta:
    """The parts of `meta` a decode needs."""

    def __init__(self, data):
        self.data = data
        top = boxes.parse_boxes(data, 0, len(data))
        meta = boxes.find(top, "meta")
        self.types, self.refs, self.properties, self.associations = {}, {}, [], {}
        for box in boxes.parse_boxes(data, meta.body + 4, meta.end):
            if box.type == "iinf":
                version = data[box.body]
                for infe in boxes.parse_boxes(data, box.body + (6 if version == 0 else 8), box.end):
                    v = data[infe.body]
                    if v == 2:
                        item, kind = struct.unpack(">H", data[infe.body + 4:infe.body + 6])[0], data[infe.body + 8:infe.body + 12]
                    elif v == 3:
                        item, kind = struct.unpack(">I", data[infe.body + 4:infe.body + 8])[0], data[infe.body + 10:infe.body + 14]
                    else:
                        continue
                    self.types[item] = kind.decode("latin-1")
            elif box.type == "iref":
                size = 2 if data[box.body] == 0 else 4
                for ref in boxes.parse_boxes(data, box.body + 4, box.end):
                    pos = ref.body
                    source = int.from_bytes(data[pos:pos + size], "big")
                    count = struct.unpack(">H", data[pos + size:pos + size + 2])[0]
                    pos += size + 2
                    targets = [int.from_bytes(data[pos + i * size:pos + (i + 1) * size], "big") for i in range(count)]
                    self.refs.setdefault((ref.type, source), []).extend(targets)
            elif box.type == "iprp":
                for child in box.children:
                    if child.type == "ipco":
                        self.properties = [(p.type, data[p.body:p.end]) for p in child.children]
                    elif child.type == "ipma":
                        for item, associations in boxes.parse_ipma(data, child)[2]:
                            self.associations.setdefault(item, []).extend(index for _, index in associations)
            elif box.type == "iloc":
                self.locations = {entry["id"]: entry for entry in boxes.parse_iloc(data, box)["items"]}
            elif box.type == "idat":
                self.idat = data[box.body:box.end]

    def item_properties(self, item):
        return [self.properties[i - 1] for i in self.associations.get(item, []) if 1 <= i <= len(self.properties)]

    def item_data(self, item):
        entry = self.locations[item]
        store = self.idat if entry["construction"] == 1 else self.data
        return b"".join(store[entry["base"] + offset:entry["base"] + offset + length] for _, offset, length in entry["extents"])


def ffmpeg_frames(stream, demuxer, count):
    """Decodes `count` frames of `stream`; returns them as 8-bit planes (Y[, Cb, Cr]) and the probe."""
    with tempfile.TemporaryDirectory() as work:
        source, raw = os.path.join(work, "in"), os.path.join(work, "out.yuv")
        open(source, "wb").write(stream)
        probe = subprocess.run(["ffprobe", "-v", "error", "-f", demuxer, "-show_entries",
                                "stream=pix_fmt,width,height,color_space,color_range", "-of", "default=nw=1", source],
                               check=True, capture_output=True, text=True).stdout
        info = dict(line.split("=", 1) for line in probe.split())
        subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", demuxer, "-i", source, "-fps_mode", "passthrough",
                        "-c:v", "rawvideo", "-f", "rawvideo", raw], check=True, capture_output=True)
        samples = open(raw, "rb").read()
    width, height, fmt = int(info["width"]), int(info["height"]), info["pix_fmt"]
    bits = 10 if "10" in fmt else 12 if "12" in fmt else 8
    depth = np.uint16 if bits > 8 else np.uint8
    values = np.frombuffer(samples, dtype=depth)
    chroma = None if fmt.startswith("gray") else (2, 2) if "420" in fmt else (2, 1) if "422" in fmt else (1, 1)
    cw, ch = (0, 0) if chroma is None else (-(-width // chroma[0]), -(-height // chroma[1]))
    frame = width * height + 2 * cw * ch
    if values.size != frame * count:
        raise SystemExit(f"ffmpeg gave {values.size} samples for {count} frames of {frame} ({fmt})")
    frames = []
    for index in range(count):
        at = index * frame
        planes = [values[at:at + width * height].reshape(height, width)]
        if chroma:
            at += width * height
            planes += [values[at:at + cw * ch].reshape(ch, cw), values[at + cw * ch:at + 2 * cw * ch].reshape(ch, cw)]
        frames.append(planes)
    return frames, info, bits, chroma


def rgb(planes, bits, chroma, nclx, info, precise=False):
    """8-bit gray or RGB from decoded planes, with the item's nclx (else the stream's colour);
    `precise`: floats 0..1, unrounded."""
    maximum = (1 << bits) - 1
    if chroma is None:
        gray = planes[0].astype(np.float64) / maximum
        return gray if precise else np.round(gray * 255).astype(np.uint8)
    height, width = planes[0].shape
    y = planes[0].astype(np.float64)
    cb, cr = (np.repeat(np.repeat(p.astype(np.float64), chroma[1], 0), chroma[0], 1)[:height, :width] for p in planes[1:])
    matrix = nclx[0] if nclx else {"bt709": 1, "smpte170m": 6, "bt470bg": 5, "bt2020nc": 9, "gbr": 0}.get(info.get("color_space"), 6)
    full = nclx[1] if nclx else info.get("color_range") == "pc"
    scale = 1 << (bits - 8)
    if full:
        y, cb, cr = y / maximum, (cb - (maximum + 1) / 2) / maximum, (cr - (maximum + 1) / 2) / maximum
    else:
        y, cb, cr = (y - 16 * scale) / (219 * scale), (cb - 128 * scale) / (224 * scale), (cr - 128 * scale) / (224 * scale)
    if matrix == 0:  # GBR: Y is green, Cb blue, Cr red
        r, g, b = cr + 0.5 if full else cr, y, cb + 0.5 if full else cb
    elif matrix in MATRICES:
        kr, kb = MATRICES[matrix]
        r, b = y + 2 * (1 - kr) * cr, y + 2 * (1 - kb) * cb
        g = (y - kr * r - kb * b) / (1 - kr - kb)
    else:
        raise SystemExit(f"matrix_coefficients {matrix} is not handled")
    colour = np.clip(np.stack([r, g, b], axis=-1), 0, 1)
    return colour if precise else np.round(colour * 255).astype(np.uint8)


def coded_stream(meta, item):
    """The item's bitstream as ffmpeg reads it, and the demuxer."""
    data = meta.item_data(item)
    kind = meta.types[item]
    if kind == "av01":
        return b"\x12\x00" + data, "obu"  # a temporal delimiter OBU, then the item's OBUs
    if kind == "hvc1":
        hvcc = next(payload for name, payload in meta.item_properties(item) if name == "hvcC")
        length_size, stream, pos = (hvcc[21] & 3) + 1, b"", 23
        for _ in range(hvcc[22]):
            count = struct.unpack(">H", hvcc[pos + 1:pos + 3])[0]
            pos += 3
            for _ in range(count):
                size = struct.unpack(">H", hvcc[pos:pos + 2])[0]
                stream += b"\0\0\0\1" + hvcc[pos + 2:pos + 2 + size]
                pos += 2 + size
        pos = 0
        while pos + length_size <= len(data):
            size = int.from_bytes(data[pos:pos + length_size], "big")
            stream += b"\0\0\0\1" + data[pos + length_size:pos + length_size + size]
            pos += length_size + size
        return stream, "hevc"
    raise SystemExit(f"item {item} is '{kind}', which this reference does not decode")


def nclx_of(meta, item):
    for name, payload in meta.item_properties(item):
        if name == "colr" and payload[:4] == b"nclx":
            return struct.unpack(">H", payload[8:10])[0], payload[10] & 0x80 != 0
    return None


def decode(meta, item, precise=False):
    """The item's 8-bit pixels (`precise`: floats 0..1), its transforms applied."""
    if meta.types[item] == "grid":
        descriptor = meta.item_data(item)
        rows, columns = descriptor[2] + 1, descriptor[3] + 1
        wide = descriptor[1] & 1
        width, height = struct.unpack(">II" if wide else ">HH", descriptor[4:12 if wide else 8])
        tiles = meta.refs[("dimg", item)]
        streams = [coded_stream(meta, tile) for tile in tiles]
        frames, info, bits, chroma = ffmpeg_frames(b"".join(s for s, _ in streams), streams[0][1], len(tiles))
        pictures = [rgb(planes, bits, chroma, nclx_of(meta, tile), info, precise) for planes, tile in zip(frames, tiles)]
        th, tw = pictures[0].shape[:2]
        canvas = np.zeros((rows * th, columns * tw) + pictures[0].shape[2:], pictures[0].dtype)
        for index, picture in enumerate(pictures):
            row, column = divmod(index, columns)
            canvas[row * th:(row + 1) * th, column * tw:(column + 1) * tw] = picture
        picture = canvas[:height, :width]
    else:
        stream, demuxer = coded_stream(meta, item)
        frames, info, bits, chroma = ffmpeg_frames(stream, demuxer, 1)
        picture = rgb(frames[0], bits, chroma, nclx_of(meta, item), info, precise)
    for name, payload in meta.item_properties(item):
        if name == "irot":
            picture = np.rot90(picture, payload[0] & 3)
        elif name == "imir":
            picture = picture[::-1] if payload[0] & 1 == 0 else picture[:, ::-1]
        elif name == "clap":
            raise SystemExit(f"item {item} has a 'clap', which this reference does not apply")
    return np.ascontiguousarray(picture)


if __name__ == "__main__":
    source, item, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    np.save(out, decode(Meta(open(source, "rb").read()), item))
