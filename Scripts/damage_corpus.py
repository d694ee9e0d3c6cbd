"""Damaged-photo corpus: damage intact HEIF files inside their coded image data, convert
each damaged copy with heic2jpg and say whether it failed, came out right, or came out
wrong while reported converted (issue #30). Run through Scripts/damage-corpus, which
documents the options (`Scripts/damage-corpus --help`).
"""

import argparse
import concurrent.futures
import hashlib
import io
import json
import os
import random
import shutil
import struct
import subprocess
import sys
import tempfile
import time

import numpy as np
from PIL import Image

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHARED = os.path.join(os.path.dirname(ROOT), "shared")

# (path relative to the repo root or ../shared, encoder) — photo-like HEVC/AV1 files from
# several encoders. Corpus files are used in place; a missing one is skipped.
DEFAULT_SOURCES = [
    ("corpus/iphone/iphone13pro-depth-gainmap.heic", "Apple iPhone 13 Pro (grid, gain map, depth)"),
    ("corpus/iphone/iphone8plus-rot90-thumb.heic", "Apple iPhone 8 Plus (grid, irot)"),
    ("corpus-wide/gainmap/crabbyavif-iphone15pro-ios18-tmap-plus-apple-hdrgainmap.heic",
     "Apple iPhone 15 Pro iOS 18 (grid, tmap + gain-map grid)"),
    ("corpus/android/xiaomi-exif-192k.heic", "Xiaomi (grid)"),
    ("corpus-wide/phones/libvips-pr5132-oneplus13.heic", "OnePlus 13"),
    ("corpus/nokia/autumn_1440x960.heic", "Nokia conformance (single image)"),
    ("corpus/camera/sony-a7s3-10bit-422.hif", "Sony A7S III (10-bit 4:2:2)"),
    ("corpus/libheif/example.avif", "AVIF (libheif example, AV1)"),
    ("corpus-wide/structure/av1avif-ms-ronda-irot90.avif", "AVIF (Microsoft, AV1, irot)"),
    ("Samples/gainmap-samsung-hdrgm.heic", "x265 via heif-enc (Samsung-style gain map)"),
    ("Samples/grid-rotated-mirrored.heic", "x265, project container (grid, irot+imir)"),
    ("Samples/photo-exif-gps-xmp-icc.heic", "x265 via heif-enc (single image)"),
]

KINDS = ["zero4k", "zero512", "bitflip", "random64", "cut", "delete1", "insert1"]

PSNR_OK = 45.0
HEVC_PARAM_NALS = {32, 33, 34}  # VPS, SPS, PPS (never damaged; SEI etc. are not slices either)


def resolve(path):
    if os.path.isabs(path):
        return path
    if path.startswith("Samples/"):
        return os.path.join(ROOT, path)
    return os.path.join(SHARED, path)


# ---------------------------------------------------------------- ISOBMFF


def boxes(data, start, end):
    """Yield (type, payload_start, box_end) for the boxes in data[start:end]."""
    pos = start
    while pos + 8 <= end:
        size, kind = struct.unpack(">I4s", data[pos:pos + 8])
        header = 8
        if size == 1:
            if pos + 16 > end:
                return
            size = struct.unpack(">Q", data[pos + 8:pos + 16])[0]
            header = 16
        elif size == 0:
            size = end - pos
        if size < header or pos + size > end:
            return
        yield kind.decode("latin-1"), pos + header, pos + size
        pos += size


def read_uint(data, pos, n):
    if n == 0:
        return 0, pos
    return int.from_bytes(data[pos:pos + n], "big"), pos + n


def parse_heif(data):
    """Items of a HEIF file: {id: {"type", "extents": [(offset, length)], "hvcC_len"}},
    plus the thumbnail item IDs, the dimg references and the auxl references."""
    meta = None
    for kind, p, e in boxes(data, 0, len(data)):
        if kind == "meta":
            meta = (p + 4, e)  # full box
    if meta is None:
        raise ValueError("no meta box")
    items, thumbs, dimg, auxl = {}, set(), {}, set()
    props, assoc, idat = [], {}, None
    for kind, p, e in boxes(data, *meta):
        if kind == "iinf":
            version = data[p]
            q = p + 4
            count, q = read_uint(data, q, 2 if version == 0 else 4)
            for ikind, ip, ie in boxes(data, q, e):
                if ikind != "infe":
                    continue
                iv = data[ip]
                if iv < 2:
                    continue
                q2 = ip + 4
                iid, q2 = read_uint(data, q2, 2 if iv == 2 else 4)
                q2 += 2  # protection index
                itype = data[q2:q2 + 4].decode("latin-1")
                items.setdefault(iid, {"extents": []})["type"] = itype
        elif kind == "iloc":
            version = data[p]
            q = p + 4
            b1, b2 = data[q], data[q + 1]
            q += 2
            off_size, len_size, base_size = b1 >> 4, b1 & 15, b2 >> 4
            idx_size = (b2 & 15) if version in (1, 2) else 0
            count, q = read_uint(data, q, 2 if version < 2 else 4)
            for _ in range(count):
                iid, q = read_uint(data, q, 2 if version < 2 else 4)
                method = 0
                if version in (1, 2):
                    method = data[q + 1] & 15
                    q += 2
                q += 2  # data reference index
                base, q = read_uint(data, q, base_size)
                n, q = read_uint(data, q, 2)
                exts = []
                for _ in range(n):
                    _, q = read_uint(data, q, idx_size)
                    off, q = read_uint(data, q, off_size)
                    length, q = read_uint(data, q, len_size)
                    exts.append((base + off, length))
                entry = items.setdefault(iid, {"extents": []})
                entry["method"] = method
                entry["extents"] = exts
        elif kind == "iref":
            version = data[p]
            w = 2 if version == 0 else 4
            for rkind, rp, re in boxes(data, p + 4, e):
                src, q = read_uint(data, rp, w)
                n, q = read_uint(data, q, 2)
                refs = []
                for _ in range(n):
                    r, q = read_uint(data, q, w)
                    refs.append(r)
                if rkind == "thmb":
                    thumbs.add(src)
                elif rkind == "dimg":
                    dimg.setdefault(src, []).extend(refs)
                elif rkind == "auxl":
                    auxl.add(src)
        elif kind == "iprp":
            for pkind, pp, pe in boxes(data, p, e):
                if pkind == "ipco":
                    props = list(boxes(data, pp, pe))
                elif pkind == "ipma":
                    version, flags = data[pp], int.from_bytes(data[pp + 1:pp + 4], "big")
                    q = pp + 4
                    count, q = read_uint(data, q, 4)
                    for _ in range(count):
                        iid, q = read_uint(data, q, 2 if version < 1 else 4)
                        n = data[q]
                        q += 1
                        for _ in range(n):
                            if flags & 1:
                                v = int.from_bytes(data[q:q + 2], "big") & 0x7FFF
                                q += 2
                            else:
                                v = data[q] & 0x7F
                                q += 1
                            if v:
                                assoc.setdefault(iid, []).append(v)
        elif kind == "idat":
            idat = (p, e)
    for iid, entry in items.items():
        entry["nal_length_size"] = 4
        for v in assoc.get(iid, []):
            if v - 1 < len(props):
                pkind, pp, pe = props[v - 1]
                if pkind == "hvcC" and pe - pp > 21:
                    entry["nal_length_size"] = (data[pp + 21] & 3) + 1
    return items, thumbs, dimg, auxl


def leb128(data, pos, end):
    value = 0
    for i in range(8):
        if pos >= end:
            return None, pos
        b = data[pos]
        pos += 1
        value |= (b & 0x7F) << (7 * i)
        if not b & 0x80:
            return value, pos
    return None, pos


def damageable_ranges(data, entry):
    """Item-relative [start, end) ranges of the coded picture data that may be damaged:
    inside slice NALs (HEVC) / frame and tile-group OBUs (AV1), past the first 24 bytes of
    each one's payload and past the item's first 40 bytes."""
    blob = b"".join(data[o:o + n] for o, n in entry["extents"])
    ranges = []
    if entry["type"] == "hvc1":
        size = entry["nal_length_size"]
        pos = 0
        while pos + size + 2 <= len(blob):
            n = int.from_bytes(blob[pos:pos + size], "big")
            start, end = pos + size, min(pos + size + n, len(blob))
            nal_type = (blob[start] >> 1) & 63
            if nal_type <= 31 and nal_type not in HEVC_PARAM_NALS:
                lo = max(start + 2 + 24, 40)
                if lo < end:
                    ranges.append((lo, end))
            pos = start + n
    elif entry["type"] == "av01":
        pos = 0
        while pos < len(blob):
            header = blob[pos]
            obu_type, ext, has_size = (header >> 3) & 15, (header >> 2) & 1, (header >> 1) & 1
            q = pos + 1 + ext
            if has_size:
                n, q = leb128(blob, q, len(blob))
                if n is None:
                    break
            else:
                n = len(blob) - q
            end = min(q + n, len(blob))
            if obu_type in (4, 6):  # tile group, frame
                lo = max(q + 24, 40)
                if lo < end:
                    ranges.append((lo, end))
            pos = q + n
    return ranges


def targets(data):
    """[(item_id, role, [(file_offset, length)], [(item_lo, item_hi)])] for every coded
    image item but thumbnails."""
    items, thumbs, dimg, auxl = parse_heif(data)
    tiles = {t for refs in dimg.values() for t in refs}
    out = []
    for iid in sorted(items):
        entry = items[iid]
        if entry.get("type") not in ("hvc1", "av01") or entry.get("method", 0) != 0:
            continue
        if iid in thumbs or not entry["extents"]:
            continue
        aux_tiles = {t for g in auxl for t in dimg.get(g, [])}
        role = "aux" if iid in auxl or iid in aux_tiles else "tile" if iid in tiles else "image"
        ranges = damageable_ranges(data, entry)
        if ranges:
            out.append((iid, role, entry["extents"], ranges))
    return out


def to_file_offset(extents, item_offset):
    """The file offset of an item-relative offset, and the end of its extent."""
    for off, length in extents:
        if item_offset < length:
            return off + item_offset, off + length
        item_offset -= length
    raise ValueError("offset past the item")


# ---------------------------------------------------------------- damage


def make_variant(data, tgts, kind, seed, source_key, index):
    rng = random.Random(f"{seed}/{source_key}/{kind}/{index}")
    weights = [sum(hi - lo for lo, hi in t[3]) for t in tgts]
    pick = rng.randrange(sum(weights))
    for t, w in zip(tgts, weights):
        if pick < w:
            break
        pick -= w
    iid, role, extents, ranges = t
    for lo, hi in ranges:
        if pick < hi - lo:
            item_offset = lo + pick
            break
        pick -= hi - lo
    offset, extent_end = to_file_offset(extents, item_offset)
    out = bytearray(data)
    detail = ""
    if kind in ("zero4k", "zero512"):
        n = min(4096 if kind == "zero4k" else 512, extent_end - offset)
        out[offset:offset + n] = bytes(n)
        detail = f"{n} bytes"
    elif kind == "bitflip":
        bit = rng.randrange(8)
        out[offset] ^= 1 << bit
        detail = f"bit {bit}"
    elif kind == "random64":
        n = min(64, extent_end - offset)
        out[offset:offset + n] = bytes(rng.randrange(256) for _ in range(n))
        detail = f"{n} bytes"
    elif kind == "cut":
        del out[offset:]
        detail = f"{offset} of {len(data)} bytes kept"
    elif kind == "delete1":
        del out[offset]
    elif kind == "insert1":
        value = rng.randrange(256)
        out.insert(offset, value)
        detail = f"0x{value:02x}"
    return bytes(out), {"item": iid, "role": role, "offset": offset, "detail": detail}


# ---------------------------------------------------------------- convert and compare


def convert(bin_path, args, path, outdir):
    """Run heic2jpg; return (entry or None, exit status, stderr tail)."""
    os.makedirs(outdir, exist_ok=True)
    report = outdir + ".jsonl"
    cmd = [bin_path, "-o", outdir, "--report", report, "--quiet"] + args + [path]
    try:
        proc = subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, timeout=600)
        rc, err = proc.returncode, proc.stderr.decode("utf-8", "replace")
    except subprocess.TimeoutExpired:
        return None, "harness-timeout", "heic2jpg ran over 600 s"
    entry = None
    try:
        with open(report) as f:
            for line in f:
                obj = json.loads(line)
                if not obj.get("summary"):
                    entry = obj
    except (OSError, ValueError):
        pass
    return entry, rc, err.strip().splitlines()[-1:] and err.strip().splitlines()[-1] or ""


def frames(path):
    """Luma planes of every image in a JPEG: the primary, then the images its MPF index
    lists (an Ultra HDR file's gain map), found from the index itself (Pillow 9's MPO
    reader misplaces them)."""
    from PIL import JpegImagePlugin
    with open(path, "rb") as f:
        data = f.read()
    with JpegImagePlugin.JpegImageFile(io.BytesIO(data)) as im:
        out = [np.asarray(im.convert("L"))]
        try:
            entries = (JpegImagePlugin._getmp(im) or {}).get(0xB002) or []
        except Exception:  # noqa: BLE001 - no or unreadable MPF index: the primary alone
            entries = []
    mpf = data.find(b"MPF\x00")
    for entry in entries[1:]:
        start = mpf + 4 + entry["DataOffset"]
        with Image.open(io.BytesIO(data[start:start + entry["Size"]])) as im:
            out.append(np.asarray(im.convert("L")))
    return out


def psnr(a, b):
    d = a.astype(np.float64) - b.astype(np.float64)
    mse = float(np.mean(d * d))
    return float("inf") if mse == 0 else 10 * np.log10(255.0 ** 2 / mse)


def outputs_of(entry):
    return {os.path.basename(o["path"]): o["path"] for o in (entry or {}).get("outputs") or []}


def reference(bin_path, args, source, workdir):
    entry, rc, err = convert(bin_path, args, source, os.path.join(workdir, "out"))
    if rc != 0 or not entry or entry.get("status") != "converted":
        return None, f"the intact source did not convert (exit {rc}): {err}"
    planes = {name: frames(path) for name, path in outputs_of(entry).items()}
    return planes, None


def classify(ref, entry, rc):
    """(class, error code or note, worst PSNR or None)."""
    if rc == "harness-timeout":
        return "failed", "harness-timeout", None
    if rc < 0 or rc >= 128:
        return "crashed", f"heic2jpg ended by signal (exit {rc})", None
    if entry is None:
        return ("failed", f"exit {rc}, no report entry", None) if rc != 0 else \
            ("crashed", "exit 0 without a report entry", None)
    if entry.get("status") == "failed" or rc != 0:
        return "failed", entry.get("errorCode") or f"exit {rc}", None
    outs = outputs_of(entry)
    if set(outs) != set(ref):
        return "wrong", f"outputs {sorted(outs)} vs intact {sorted(ref)}", None
    worst, dropped, where = float("inf"), False, ""
    for name, path in outs.items():
        try:
            got = frames(path)
        except Exception as e:  # noqa: BLE001 - an unreadable JPEG is a wrong output
            return "wrong", f"{name}: unreadable JPEG ({e})", None
        want = ref[name]
        if len(got) == 1 < len(want) and "gain-map-not-used" in (entry.get("warningCodes") or []):
            dropped = True  # the gain map did not decode, and the report says so: SDR only
            want = want[:1]
        if len(got) != len(want):
            return "wrong", f"{name}: {len(got)} images vs {len(want)}", None
        for i, (g, w) in enumerate(zip(got, want)):
            if g.shape != w.shape:
                return "wrong", f"{name}: {g.shape[1]}x{g.shape[0]} vs {w.shape[1]}x{w.shape[0]}", None
            value = psnr(g, w)
            if value < worst:
                worst, where = value, name + (" (its gain map)" if i else "")
    if worst < PSNR_OK:
        return "wrong", where, worst
    if dropped:
        return "sdr-only", "gain-map-not-used", worst
    return "ok", "", worst


# Worker state: the intact outputs of the source being worked on (jobs come in source
# order), read from the pickle the main process wrote for it.
_REFS = {}


def load_ref(refs_dir, key):
    if key not in _REFS:
        import pickle
        _REFS.clear()
        with open(os.path.join(refs_dir, hashlib.sha256(key.encode()).hexdigest() + ".pickle"), "rb") as f:
            _REFS[key] = pickle.load(f)
    return _REFS[key]


def run_variant(job):
    bin_path, args, source_key, source, kind, index, seed, workroot, keep_dir = job
    with open(source, "rb") as f:
        data = f.read()
    tgts = targets(data)
    variant, info = make_variant(data, tgts, kind, seed, source_key, index)
    vdir = tempfile.mkdtemp(prefix=f"{kind}-{index}-", dir=workroot)
    try:
        name = os.path.basename(source)
        path = os.path.join(vdir, name)
        with open(path, "wb") as f:
            f.write(variant)
        t0 = time.monotonic()
        entry, rc, err = convert(bin_path, args, path, os.path.join(vdir, "out"))
        seconds = time.monotonic() - t0
        cls, note, worst = classify(load_ref(workroot, source_key), entry, rc)
        result = dict(source=source_key, kind=kind, index=index, cls=cls, note=note,
                      psnr=None if worst is None or worst == float("inf") else round(worst, 2),
                      exit=rc, seconds=round(seconds, 2),
                      warningCodes=sorted(set((entry or {}).get("warningCodes") or [])),
                      sha256=hashlib.sha256(variant).hexdigest()[:16], **info)
        if cls in ("wrong", "crashed") and keep_dir:
            stem, ext = os.path.splitext(name)
            kept = os.path.join(keep_dir, f"{stem}.{kind}-{index}.off{info['offset']}{ext}")
            shutil.copyfile(path, kept)
            result["kept"] = kept
        if cls == "crashed":
            result["note"] += f": {err}"
        return result
    finally:
        shutil.rmtree(vdir, ignore_errors=True)


# ---------------------------------------------------------------- report


def table(results, key, keys, title):
    cols = ["failed", "ok", "wrong"]
    cols += [c for c in ("sdr-only", "crashed") if any(r["cls"] == c for r in results)]
    width = max([len(title)] + [len(k) for k in keys]) + 2
    head = f"{title:<{width}}" + "".join(f"{c if c != 'ok' else 'ok>=45dB':>10}" for c in cols) + f"{'total':>8}"
    lines = [head, "-" * len(head)]
    totals = {c: 0 for c in cols}
    for k in keys:
        rows = [r for r in results if r[key] == k]
        counts = {c: sum(r["cls"] == c for r in rows) for c in cols}
        for c in cols:
            totals[c] += counts[c]
        lines.append(f"{k:<{width}}" + "".join(f"{counts[c]:>10}" for c in cols) + f"{len(rows):>8}")
    lines.append("-" * len(head))
    lines.append(f"{'total':<{width}}" + "".join(f"{totals[c]:>10}" for c in cols) + f"{len(results):>8}")
    return lines


def main():
    p = argparse.ArgumentParser(prog="damage-corpus", add_help=True)
    p.add_argument("--bin", required=True)
    p.add_argument("--sources", nargs="+", metavar="FILE")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--variants", type=int)
    p.add_argument("--quick", action="store_true")
    p.add_argument("--kinds", default=",".join(KINDS))
    p.add_argument("--decoder", choices=["de265", "avcodec-unchecked", "auto"])
    p.add_argument("--with", dest="extra", action="append", default=[], metavar="ARG")
    p.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1)
    p.add_argument("--keep-dir")
    p.add_argument("--json")
    p.add_argument("--no-fail", action="store_true")
    p.add_argument("--list", action="store_true")
    a = p.parse_args()
    kinds = [k for k in a.kinds.split(",") if k]
    for k in kinds:
        if k not in KINDS:
            p.error(f"unknown kind {k!r} (kinds: {', '.join(KINDS)})")
    variants = a.variants or (3 if a.quick else 25)
    bin_path = os.path.abspath(a.bin)
    args = (["--decoder", a.decoder] if a.decoder else []) + a.extra
    if a.keep_dir:
        os.makedirs(a.keep_dir, exist_ok=True)
    started = time.monotonic()

    if a.sources:
        sources = [(os.path.abspath(s), "") for s in a.sources]
    else:
        sources = [(resolve(s), enc) for s, enc in DEFAULT_SOURCES]
    if a.list:
        for s, enc in sources:
            print(f"{s}  {enc}{'' if os.path.exists(s) else '  (missing)'}")
        return 0

    workroot = tempfile.mkdtemp(prefix="damage-corpus-")
    refs, usable, skipped = {}, [], []
    try:
        for source, enc in sources:
            key = os.path.basename(source)
            if key in refs:
                key = os.path.relpath(source, ROOT)
            if not os.path.isfile(source):
                skipped.append((key, "missing"))
                continue
            with open(source, "rb") as f:
                data = f.read()
            try:
                tgts = targets(data)
            except Exception as e:  # noqa: BLE001
                skipped.append((key, f"boxes not parsed: {e}"))
                continue
            if not tgts:
                skipped.append((key, "no coded image data found"))
                continue
            ref, why = reference(bin_path, args, source, tempfile.mkdtemp(dir=workroot))
            if ref is None:
                skipped.append((key, why))
                continue
            import pickle
            with open(os.path.join(workroot, hashlib.sha256(key.encode()).hexdigest() + ".pickle"), "wb") as f:
                pickle.dump(ref, f)
            refs[key] = True
            usable.append((key, source, enc, tgts))

        print(f"damage-corpus: {os.path.basename(bin_path)} {' '.join(args) or '(defaults)'}; "
              f"seed {a.seed}; {variants} per kind per source; kinds {','.join(kinds)}")
        for key, source, enc, tgts in usable:
            roles = {}
            for t in tgts:
                roles[t[1]] = roles.get(t[1], 0) + 1
            desc = ", ".join(f"{n} {r if r != 'aux' else 'auxiliary image'}" + ("s" if n > 1 else "")
                             for r, n in sorted(roles.items()))
            print(f"  source {key}: {desc}" + (f"  [{enc}]" if enc else ""))
        for key, why in skipped:
            print(f"  skipped {key}: {why}")
        sys.stdout.flush()

        jobs = [(bin_path, args, key, source, kind, i, a.seed, workroot, a.keep_dir)
                for key, source, _, _ in usable for kind in kinds for i in range(variants)]
        results = []
        with concurrent.futures.ProcessPoolExecutor(max_workers=max(1, a.jobs)) as pool:
            for n, r in enumerate(pool.map(run_variant, jobs, chunksize=1), 1):
                results.append(r)
                if sys.stderr.isatty():
                    print(f"\r{n}/{len(jobs)}", end="", file=sys.stderr, flush=True)
        if sys.stderr.isatty():
            print(file=sys.stderr)
    finally:
        shutil.rmtree(workroot, ignore_errors=True)

    if a.json:
        with open(a.json, "w") as f:
            for r in results:
                f.write(json.dumps(r) + "\n")
    print()
    print("\n".join(table(results, "kind", kinds, "kind")))
    print()
    print("\n".join(table(results, "source", [u[0] for u in usable], "source")))
    bad = [r for r in results if r["cls"] in ("wrong", "crashed")]
    if bad:
        print()
        print(f"{len(bad)} damaged copies came out converted but wrong"
              f"{' or crashed heic2jpg' if any(r['cls'] == 'crashed' for r in bad) else ''}:")
        for r in bad:
            measure = f"{r['psnr']:.2f} dB in {r['note']}" if r["psnr"] is not None else r["note"]
            print(f"  {r['cls']}: {r['source']} {r['kind']}#{r['index']} item {r['item']} ({r['role']}) "
                  f"at byte {r['offset']}{' (' + r['detail'] + ')' if r['detail'] else ''}: {measure}"
                  + (f" -> {r['kept']}" if r.get("kept") else ""))
    codes = {}
    for r in results:
        if r["cls"] == "failed":
            codes[r["note"]] = codes.get(r["note"], 0) + 1
    failed = sum(r["cls"] == "failed" for r in results)
    ok = sum(r["cls"] == "ok" for r in results)
    sdr = sum(r["cls"] == "sdr-only" for r in results)
    print()
    if codes:
        print("failed by error code: " + ", ".join(f"{c} {n}" for c, n in sorted(codes.items(), key=lambda x: -x[1])))
    elapsed = time.monotonic() - started
    print(f"damage-corpus: {len(results)} damaged copies of {len(usable)} sources"
          f"{f' ({len(skipped)} skipped)' if skipped else ''}: {failed} failed cleanly, "
          f"{ok} converted right (>= {PSNR_OK:g} dB), "
          f"{f'{sdr} right but SDR only (gain map undecodable, warned), ' if sdr else ''}{len(bad)} converted wrong"
          f"{' or crashed' if any(r['cls'] == 'crashed' for r in bad) else ''}; {elapsed:.0f} s")
    return 1 if bad and not a.no_fail else 0


if __name__ == "__main__":
    sys.exit(main())
