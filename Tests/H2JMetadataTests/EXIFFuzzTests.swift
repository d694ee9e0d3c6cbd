import H2JTestSupport
import Testing
@testable import H2JJPEG
@testable import H2JMetadata

/// Deterministic random mutation of valid EXIF items: `make` must return, never trap,
/// and whatever it returns must be a well-formed, upright, size-bounded APP1 payload.
@Suite("EXIF mutation fuzzing")
struct EXIFFuzzTests {
    /// 4 seeds × 5,000 = 20,000 variants (a quarter in debug builds); separate cases so
    /// they run in parallel.
    static let seeds: [UInt64] = [0x5EED_0F_E71F, 0xC0FFEE, 0xBAD_F00D, 0x1234_5678_9ABC]
    static let iterationsPerSeed = TestScale.iterations(5_000)

    static let imageUniqueID = "00112233445566778899AABBCCDDEEFF"

    /// Interesting 32-bit values for offsets and counts.
    static let specials: [UInt32] = [0, 1, 2, 4, 7, 8, 9, 0x7FFF, 0xFFFF, 0x1_0000, 0x7FFF_FFFF, 0x8000_0000, 0xFFFF_FFFE, 0xFFFF_FFFF]

    /// A small but complete blob (every IFD kind, a maker note, user text fields, a
    /// thumbnail behind a gap): small so that mutations hit structure often and the loop
    /// stays fast.
    static func base(bigEndian: Bool) -> [UInt8] {
        typealias Entry = EXIFTestTIFF.Entry
        var t = EXIFTestTIFF()
        t.bigEndian = bigEndian
        t.ifd0 = [Entry(EXIFTag.make, .ascii("Xiaomi")), Entry(EXIFTag.orientation, .short([6])),
                  Entry(EXIFTag.imageWidth, .short([4000]))]
        t.exif = [Entry(EXIFTag.pixelXDimension, .long([4000])), Entry(EXIFTag.makerNote, .undefined(Array(0..<12))),
                  Entry(EXIFTag.userComment, .undefined(Array("UNICODE\u{0}".utf8) + [0, 0x41, 0, 0x42, 0xD8, 0x3D, 0xDE, 0]))]
        t.ifd0 += [Entry(EXIFTag.artist, .ascii("Ana")), Entry(EXIFTag.copyright, .ascii("A\u{0}B"))]
        t.interop = [Entry(0x0001, .ascii("R98"))]
        t.gps = [Entry(EXIFTag.gpsLatitude, .rational([(1, 1), (2, 1), (3, 1)]))]
        t.ifd1 = [Entry(EXIFTag.orientation, .short([8]))]
        t.thumbnail = [0xFF, 0xD8] + [UInt8](repeating: 0x42, count: 12) + [0xFF, 0xD9]
        t.thumbnailGap = 40
        return t.build().bytes
    }

    func mutate(_ base: [UInt8], _ rng: inout EXIFTestSupport.LCG) -> [UInt8] {
        var bytes = base
        for _ in 0...rng.below(4) {
            guard !bytes.isEmpty else { break }
            let at = rng.below(bytes.count)
            switch rng.below(7) {
            case 0:  // random byte
                bytes[at] = UInt8(truncatingIfNeeded: rng.next())
            case 1:  // bit flip
                bytes[at] ^= UInt8(1) << UInt8(rng.below(8))
            case 2, 3:  // special 32-bit value, either byte order, at a 2-aligned spot
                let v = Self.specials[rng.below(Self.specials.count)] &+ UInt32(rng.below(3))
                let aligned = at & ~1
                let le = rng.below(2) == 0
                for i in 0..<4 where aligned + i < bytes.count {
                    let shift = UInt32(le ? 8 * i : 24 - 8 * i)
                    bytes[aligned + i] = UInt8((v >> shift) & 0xFF)
                }
            case 4:  // a small offset into the blob (makes pointers land on real structure)
                let aligned = at & ~1
                let v = UInt32(rng.below(base.count))
                if aligned + 1 < bytes.count {
                    bytes[aligned] = UInt8(v & 0xFF)
                    bytes[aligned + 1] = UInt8(v >> 8)
                }
            case 5:  // truncate
                bytes.removeLast(rng.below(min(bytes.count, 64)) + 1)
            default:  // duplicate a 12-byte run elsewhere (copies entries around)
                let from = rng.below(bytes.count)
                for i in 0..<12 where from + i < bytes.count && at + i < bytes.count {
                    bytes[at + i] = bytes[from + i]
                }
            }
        }
        return bytes
    }

    @Test("5,000 mutated items per seed (a quarter in debug) never trap and yield valid payloads", arguments: seeds)
    func mutations(seed: UInt64) throws {
        var bases: [[UInt8]] = []
        for bigEndian in [false, true] {
            let tiff = Self.base(bigEndian: bigEndian)
            bases.append(EXIFTestSupport.heifItem(tiff: tiff))
            bases.append(EXIFTestSupport.heifItem(tiff: tiff, offset: 6, prefix: JPEGAPPSignature.exif))
        }
        var rng = EXIFTestSupport.LCG(state: seed)
        var produced = 0, silentFailures = 0, badPayloads: [String] = [], repacked = 0, laddered = 0
        for i in 0..<Self.iterationsPerSeed {
            let item = mutate(bases[i % bases.count], &rng)
            // Alternate the real limit with small ones so every fitting step is exercised.
            let limit = i % 3 == 0 ? EXIFAPP1Fitter.maxTIFFBytes : 60 + rng.below(300)
            let width = 1 + rng.below(70_000)
            // Every other variant also strips GPS (IFD0 rewritten in place, GPS bytes zeroed);
            // two in three get the provenance ImageUniqueID (the append-IFD edit).
            let result = EXIFForJPEG.make(fromHEIFExifItem: item, width: width, height: 480, stripGPS: i % 2 == 1,
                                          imageUniqueID: i % 3 == 2 ? nil : Self.imageUniqueID, tiffLimit: limit)
            if result.warnings.contains(where: { $0.message.hasPrefix("repacked the EXIF") }) { laddered += 1 }
            // Every 5th variant: a repack must read back as the same contents, and the
            // append-IFD edit on a random IFD must read back with its value (or throw).
            if i % 5 == 0, let start = TIFFHeaderLocator.locate(in: item), let dir = try? TIFFReader.read(Array(item[start...])) {
                if let layout = try? TIFFLayout(dir), case let .packed(bytes)? = try? layout.packed(cap: 1 << 20) {
                    repacked += 1
                    if (try? TIFFReader.read(bytes)).map(EXIFTestSupport.contents) != EXIFTestSupport.contents(dir) {
                        badPayloads.append("iteration \(i): repacked contents differ")
                    }
                }
                let kind = EXIFIFDKind.allCases[rng.below(EXIFIFDKind.allCases.count)]
                if let value = TIFFValue.ascii(Self.imageUniqueID), let edited = try? TIFFIFDAppender.set([0xA420: value], in: kind, of: dir),
                   edited.string(kind, 0xA420) != Self.imageUniqueID {
                    badPayloads.append("iteration \(i): appended \(kind) value does not read back")
                }
            }
            // Every 10th variant: the editor's shortcut directory must equal a full re-read.
            if i % 10 == 0, let start = TIFFHeaderLocator.locate(in: item),
               let dir = try? TIFFReader.read(Array(item[start...])) {
                var editor = EXIFInPlaceEditor(directory: dir)
                editor.setOrientationUpright()
                editor.setPixelDimensions(width: UInt32(width), height: 480)
                let reread = try? TIFFReader.read(editor.tiff), edited = editor.editedDirectory
                if reread?.ifds != edited.ifds
                    || reread?.unreadable.map({ [$0.offset, $0.parent] }) != edited.unreadable.map({ [$0.offset, $0.parent] }) {
                    badPayloads.append("iteration \(i): edited directory differs from a re-read")
                }
            }
            // Plain checks in the loop, one #expect per invariant after it: keeps it fast.
            guard let payload = result.app1Payload else {
                if result.warnings.isEmpty { silentFailures += 1 }
                continue
            }
            produced += 1
            guard payload.count <= limit + 6, payload.starts(with: JPEGAPPSignature.exif),
                  let dir = try? EXIFDirectory(app1Payload: payload),
                  dir.ifds[0].entries.allSatisfy({ $0.tag != EXIFTag.orientation
                      || ($0.type == TIFFFieldType.short && $0.count == 1 && dir.unsignedIntegers($0) == [1]) })
            else {
                badPayloads.append("iteration \(i): \(payload.count) bytes, limit \(limit)")
                continue
            }
        }
        #expect(silentFailures == 0)
        #expect(badPayloads.isEmpty, "\(badPayloads.prefix(5))")
        // Most mutations leave IFD0 readable; make sure the loop tested the edit/fit paths.
        #expect(produced > Self.iterationsPerSeed / 2)
        // ... and that the repack and the ladder after it ran on many variants.
        #expect(repacked > Self.iterationsPerSeed / 50 && laddered > Self.iterationsPerSeed / 10, "\(repacked) \(laddered)")
    }
}
