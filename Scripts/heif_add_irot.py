#!/usr/bin/env python3
"""Add (or replace) an `irot` rotation property on the primary item of a HEIF file.

heif-enc (libheif 1.15) has no rotation option and exiftool 12.x cannot add an
`irot` property, so Scripts/make-samples uses this to build a sample that is
stored landscape but displays portrait, like an iPhone photo taken upright.

    heif_add_irot.py FILE --angle 270     # in place; angle is anti-clockwise, as in irot
    heif_add_irot.py FILE --nclx 9,16,9,1 # add a colr nclx (primaries, transfer, matrix,
                                          # full range): heif-enc 1.15 writes none
    heif_add_irot.py FILE --mirror 1      # add an imir: axis 0 exchanges top and bottom,
                                          # 1 left and right (after any irot)
    heif_add_irot.py FILE --dump          # print the box tree, ipco/ipma/iloc

What it does (ISO/IEC 23008-12 + ISO/IEC 14496-12):
  * appends an `irot` box (8-byte header + 1 byte angle/90) to `ipco`, or rewrites
    the angle if the primary item already has an `irot` association;
  * appends an association (essential) to the primary item's `ipma` entry;
  * grows `ipco`, `ipma`, `iprp` and `meta` sizes by the bytes added;
  * shifts every `iloc` file offset (construction_method 0, data in this file) that
    points past the end of the original `meta` box, since everything after `meta`
    (normally `mdat`) moves by the same number of bytes.
Limits: a primary item that already has an `irot` gets that property rewritten in
place, and Sony-style files share one `irot` between the primary and its thumbnails, so
those turn too; 64-bit box sizes on meta/iprp/ipco/ipma and a second ipma are refused.
Only the standard library is used.
"""

import argparse
import struct
import sys


class Box:
    def __init__(self, typ, start, header, size):
        self.type = typ
        self.start = start          # offset of the size field
        self.header = header        # 8 or 16 (largesize)
        self.size = size            # total size including header
        self.children = []

    @property
    def body(self):
        return self.start + self.header

    @property
    def end(self):
        return self.start + self.size


CONTAINERS = {"meta": 4, "iprp": 0, "ipco": 0, "moov": 0, "trak": 0, "dinf": 0}


def parse_boxes(data, start, end):
    boxes = []
    pos = start
    while pos + 8 <= end:
        size, typ = struct.unpack(">I4s", data[pos:pos + 8])
        typ = typ.decode("latin-1")
        header = 8
        if size == 1:
            size = struct.unpack(">Q", data[pos + 8:pos + 16])[0]
            header = 16
        elif size == 0:
            size = end - pos
        if size < header or pos + size > end:
            raise ValueError(f"bad box {typ!r} at {pos}: size {size}")
        box = Box(typ, pos, header, size)
        if typ in CONTAINERS:
            skip = CONTAINERS[typ]  # `meta` is a FullBox: 4 bytes version/flags
            box.children = parse_boxes(data, box.body + skip, box.end)
        boxes.append(box)
        pos += size
    return boxes


def find(boxes, typ):
    for b in boxes:
        if b.type == typ:
            return b
    return None


def read_uint(data, pos, n):
    if n == 0:
        return 0, pos
    return int.from_bytes(data[pos:pos + n], "big"), pos + n


def parse_pitm(data, box):
    version = data[box.body]
    pos = box.body + 4
    n = 2 if version == 0 else 4
    return int.from_bytes(data[pos:pos + n], "big")


def parse_ipma(data, box):
    """Returns (version, flags, entries) with entries = [(item_id, [(essential, index)])]."""
    version = data[box.body]
    flags = int.from_bytes(data[box.body + 1:box.body + 4], "big")
    pos = box.body + 4
    count = struct.unpack(">I", data[pos:pos + 4])[0]
    pos += 4
    entries = []
    for _ in range(count):
        n = 2 if version < 1 else 4
        item_id = int.from_bytes(data[pos:pos + n], "big")
        pos += n
        nassoc = data[pos]
        pos += 1
        assoc = []
        for _ in range(nassoc):
            if flags & 1:
                v = struct.unpack(">H", data[pos:pos + 2])[0]
                pos += 2
                assoc.append((v >> 15, v & 0x7FFF))
            else:
                v = data[pos]
                pos += 1
                assoc.append((v >> 7, v & 0x7F))
        entries.append((item_id, assoc))
    if pos != box.end:
        raise ValueError("ipma: trailing bytes / unexpected layout")
    return version, flags, entries


def encode_ipma(version, flags, entries):
    out = bytearray()
    out += bytes([version]) + flags.to_bytes(3, "big")
    out += struct.pack(">I", len(entries))
    for item_id, assoc in entries:
        out += item_id.to_bytes(2 if version < 1 else 4, "big")
        if len(assoc) > 255:
            raise ValueError("too many associations")
        out.append(len(assoc))
        for essential, index in assoc:
            if flags & 1:
                out += struct.pack(">H", (essential << 15) | index)
            else:
                if index > 127:
                    raise ValueError("property index > 127 needs 16-bit ipma (flags & 1)")
                out.append((essential << 7) | index)
    return bytes(out)


def parse_iloc(data, box):
    """Returns a list of patchable fields: (file_pos, width, value, item_id, kind)."""
    version = data[box.body]
    pos = box.body + 4
    b0, b1 = data[pos], data[pos + 1]
    pos += 2
    offset_size, length_size = b0 >> 4, b0 & 15
    base_offset_size = b1 >> 4
    index_size = (b1 & 15) if version in (1, 2) else 0
    if version < 2:
        count = struct.unpack(">H", data[pos:pos + 2])[0]
        pos += 2
    else:
        count = struct.unpack(">I", data[pos:pos + 4])[0]
        pos += 4
    items = []
    for _ in range(count):
        if version < 2:
            item_id = struct.unpack(">H", data[pos:pos + 2])[0]
            pos += 2
        else:
            item_id = struct.unpack(">I", data[pos:pos + 4])[0]
            pos += 4
        construction = 0
        if version in (1, 2):
            construction = struct.unpack(">H", data[pos:pos + 2])[0] & 15
            pos += 2
        dref = struct.unpack(">H", data[pos:pos + 2])[0]
        pos += 2
        base_pos = pos
        base, pos = read_uint(data, pos, base_offset_size)
        ext_count = struct.unpack(">H", data[pos:pos + 2])[0]
        pos += 2
        extents = []
        for _ in range(ext_count):
            _, pos = read_uint(data, pos, index_size)
            off_pos = pos
            off, pos = read_uint(data, pos, offset_size)
            length, pos = read_uint(data, pos, length_size)
            extents.append((off_pos, off, length))
        items.append(dict(id=item_id, construction=construction, dref=dref,
                          base_pos=base_pos, base=base, extents=extents))
    return dict(version=version, offset_size=offset_size, length_size=length_size,
                base_offset_size=base_offset_size, items=items)


def dump(data):
    def walk(boxes, depth):
        for b in boxes:
            print(f"{'  ' * depth}{b.type} @{b.start} size={b.size}")
            walk(b.children, depth + 1)
    top = parse_boxes(data, 0, len(data))
    walk(top, 0)
    meta = find(top, "meta")
    if not meta:
        return
    pitm = find(meta.children, "pitm")
    if pitm:
        print("primary item:", parse_pitm(data, pitm))
    iprp = find(meta.children, "iprp")
    if iprp:
        ipco = find(iprp.children, "ipco")
        for i, p in enumerate(ipco.children, 1):
            extra = ""
            if p.type == "irot":
                extra = f" angle={(data[p.body] & 3) * 90} (anti-clockwise)"
            elif p.type == "ispe":
                w, h = struct.unpack(">II", data[p.body + 4:p.body + 12])
                extra = f" {w}x{h}"
            elif p.type == "colr":
                extra = " " + data[p.body:p.body + 4].decode("latin-1")
            print(f"  property {i}: {p.type}{extra}")
        version, flags, entries = parse_ipma(data, find(iprp.children, "ipma"))
        for item_id, assoc in entries:
            desc = ", ".join(f"{ipco.children[i - 1].type if 0 < i <= len(ipco.children) else i}"
                             f"{'!' if e else ''}" for e, i in assoc)
            print(f"  ipma item {item_id}: {desc}")
    iloc = find(meta.children, "iloc")
    if iloc:
        info = parse_iloc(data, iloc)
        for it in info["items"]:
            ext = ", ".join(f"{it['base'] + off}+{length}" for _, off, length in it["extents"])
            print(f"  iloc item {it['id']}: method={it['construction']} extents {ext}")


def add_irot(data, angle_ccw):
    if angle_ccw % 90 or not 0 <= angle_ccw < 360:
        raise ValueError("angle must be 0, 90, 180 or 270")
    code = angle_ccw // 90
    return add_property(data, "irot", struct.pack(">I4sB", 9, b"irot", code), essential=True,
                        rewrite=lambda out, prop: out.__setitem__(prop.body, code))


def add_nclx(data, spec):
    """A `colr` box of type nclx (not essential), unless the primary has a colr already."""
    primaries, transfer, matrix, full = (int(v) for v in spec.split(","))
    body = b"nclx" + struct.pack(">HHHB", primaries, transfer, matrix, 0x80 if full else 0)
    def refuse(out, prop):
        raise ValueError("the primary item already has a colr property")
    return add_property(data, "colr", struct.pack(">I4s", 8 + len(body), b"colr") + body, essential=False, rewrite=refuse)


def add_imir(data, axis):
    """An `imir` box (essential), unless the primary has one already."""
    if axis not in (0, 1):
        raise ValueError("axis must be 0 or 1")
    def refuse(out, prop):
        raise ValueError("the primary item already has an imir property")
    return add_property(data, "imir", struct.pack(">I4sB", 9, b"imir", axis), essential=True, rewrite=refuse)


def add_property(data, kind, new_box, essential, rewrite):
    """Appends `new_box` to ipco and associates it with the primary item (after its other
    properties); when the primary has a `kind` property already, `rewrite(out, prop)`
    edits a copy of the bytes in place instead."""
    top = parse_boxes(data, 0, len(data))
    meta = find(top, "meta")
    if meta is None:
        raise ValueError("no top-level meta box")
    pitm, iprp, iloc = (find(meta.children, t) for t in ("pitm", "iprp", "iloc"))
    if not (pitm and iprp and iloc):
        raise ValueError("meta lacks pitm/iprp/iloc")
    ipco, ipma = find(iprp.children, "ipco"), find(iprp.children, "ipma")
    if not (ipco and ipma):
        raise ValueError("iprp lacks ipco/ipma")
    if [b for b in iprp.children if b.type == "ipma"] != [ipma]:
        raise ValueError("several ipma boxes are not supported")
    primary = parse_pitm(data, pitm)
    version, flags, entries = parse_ipma(data, ipma)
    entry = next((e for e in entries if e[0] == primary), None)
    if entry is None:
        raise ValueError(f"primary item {primary} has no ipma entry")

    # Already there? Rewrite it in place: no size changes.
    for _, index in entry[1]:
        prop = ipco.children[index - 1]
        if prop.type == kind:
            out = bytearray(data)
            rewrite(out, prop)
            return bytes(out)

    new_index = len(ipco.children) + 1
    entry[1].append((1 if essential else 0, new_index))   # appended last: after any clap, as required
    new_ipma_body = encode_ipma(version, flags, entries)
    new_box_bytes = new_box

    for b in (meta, iprp, ipco, ipma):
        if b.header != 8:
            raise ValueError(f"64-bit size on {b.type} is not supported")
    ipma_delta = (8 + len(new_ipma_body)) - ipma.size
    delta = len(new_box_bytes) + ipma_delta
    meta_end = meta.end

    # Patch iloc offsets in a copy first (positions are before any insertion point
    # only if iloc precedes iprp; handle generally by patching the original bytes).
    out = bytearray(data)
    info = parse_iloc(data, iloc)
    for it in info["items"]:
        if it["construction"] != 0 or it["dref"] != 0:
            continue
        # Decide per item: if a base offset is used, shift it; else shift extents.
        if info["base_offset_size"] and it["base"] >= meta_end:
            width = info["base_offset_size"]
            new = it["base"] + delta
            if new >= 1 << (8 * width):
                raise ValueError("iloc base_offset overflow")
            out[it["base_pos"]:it["base_pos"] + width] = new.to_bytes(width, "big")
            continue
        for off_pos, off, _ in it["extents"]:
            if it["base"] + off >= meta_end:
                width = info["offset_size"]
                if width == 0:
                    raise ValueError("iloc offset_size 0 with data after meta")
                new = off + delta
                if new >= 1 << (8 * width):
                    raise ValueError("iloc extent_offset overflow")
                out[off_pos:off_pos + width] = new.to_bytes(width, "big")

    def set_size(buf, box, size):
        buf[box.start:box.start + 4] = struct.pack(">I", size)

    set_size(out, meta, meta.size + delta)
    set_size(out, iprp, iprp.size + delta)
    set_size(out, ipco, ipco.size + len(new_box_bytes))
    # Rebuild: [.. ipco end) + irot + [ipco end .. ipma) + new ipma + [ipma end ..]
    if ipma.start < ipco.end:
        raise ValueError("ipma before ipco is not supported")
    new_ipma = struct.pack(">I4s", 8 + len(new_ipma_body), b"ipma") + new_ipma_body
    result = (bytes(out[:ipco.end]) + new_box_bytes + bytes(out[ipco.end:ipma.start])
              + new_ipma + bytes(out[ipma.end:]))
    if len(result) != len(data) + delta:
        raise AssertionError("size bookkeeping error")
    return result


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("file")
    ap.add_argument("--angle", type=int, help="anti-clockwise degrees: 90, 180 or 270")
    ap.add_argument("--nclx", help="P,T,M,F: add a colr nclx box to the primary item")
    ap.add_argument("--mirror", type=int, help="add an imir box of this axis (0 or 1) to the primary item")
    ap.add_argument("-o", "--output", help="write here instead of in place")
    ap.add_argument("--dump", action="store_true", help="print the box structure")
    args = ap.parse_args()
    with open(args.file, "rb") as f:
        data = f.read()
    if args.angle is not None:
        data = add_irot(data, args.angle)
    if args.nclx is not None:
        data = add_nclx(data, args.nclx)
    if args.mirror is not None:
        data = add_imir(data, args.mirror)
    if args.angle is not None or args.nclx is not None or args.mirror is not None:
        with open(args.output or args.file, "wb") as f:
            f.write(data)
    if args.dump:
        dump(data)
    if args.angle is None and args.nclx is None and args.mirror is None and not args.dump:
        ap.error("nothing to do: give --angle, --nclx, --mirror and/or --dump")


if __name__ == "__main__":
    try:
        main()
    except (ValueError, OSError) as e:
        sys.exit(f"heif_add_irot: {e}")
