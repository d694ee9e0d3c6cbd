/// Where each sample of one tile is stored: the tile as a sequence of parts, each a run
/// of rows of the same shape (a component's plane, interleaved pixels, a Cb/Cr plane),
/// walked row by row by `SampleReader`. The same walk, run over no bytes, gives each
/// row's size, so sizes and reading can never disagree.
struct UncompressedLayout {
    /// One run of rows: the components stored in it and how a row visits them.
    struct Part {
        enum Shape {
            /// `width` samples of one component.
            case plane(component: Int)
            /// `width` pixels (pixel interleaving), or groups (multi-Y), of all components.
            case pixels
            /// One row of each component in turn (row interleaving).
            case rows
            /// `width` Cb/Cr pairs, in stored order (mixed interleaving).
            case chroma(pair: [Int])
        }
        let shape: Shape
        /// Samples (or pixels, groups, pairs) per row, and rows in the tile.
        let width: Int
        let rows: Int
        /// Bytes of one row, padding included.
        fileprivate(set) var rowBytes = 0
        /// Bytes of the part in its tile: rows, and for tile-component interleaving its
        /// tile padding.
        fileprivate(set) var bytes = 0
    }

    let format: UncompressedFormat
    let parts: [Part]
    /// Luma-plane size of a tile.
    let tileWidth: Int
    let tileHeight: Int
    /// Bytes of one tile (all its parts, tile padding included).
    let tileBytes: Int

    /// The size of one tile of an image of `width` × `height`: the image must split into
    /// equal tiles of whole chroma samples. Arithmetic only, so it can be asked of any
    /// declared size before the pixel limit is checked.
    static func tileSize(format: UncompressedFormat, width: Int, height: Int) throws(UncompressedError) -> (width: Int, height: Int) {
        guard width > 0, height > 0, width % format.tileColumns == 0, height % format.tileRows == 0 else {
            throw .malformed("\(width)×\(height) pixels do not split into \(format.tileColumns)×\(format.tileRows) equal tiles")
        }
        let tileWidth = width / format.tileColumns, tileHeight = height / format.tileRows
        let (h, v) = format.sampling.factors
        guard tileWidth % h == 0, tileHeight % v == 0 else {
            throw .malformed("\(tileWidth)×\(tileHeight) tiles do not hold whole chroma samples")
        }
        return (tileWidth, tileHeight)
    }

    /// The layout of an image of `width` × `height` (its `ispe`). It walks one row of each
    /// part, so its cost grows with the width: build it only for a size within the limits.
    init(format: UncompressedFormat, width: Int, height: Int) throws(UncompressedError) {
        self.format = format
        let (tileWidth, tileHeight) = try Self.tileSize(format: format, width: width, height: height)
        self.tileWidth = tileWidth
        self.tileHeight = tileHeight
        let (h, v) = format.sampling.factors
        let components = format.components
        func planeSize(_ index: Int) -> (Int, Int) {
            [.cb, .cr].contains(components[index].role) ? (tileWidth / h, tileHeight / v) : (tileWidth, tileHeight)
        }
        var parts: [Part] = []
        switch format.interleave {
        case .component, .tileComponent:
            parts = components.indices.map { index in
                let (w, r) = planeSize(index)
                return Part(shape: .plane(component: index), width: w, rows: r)
            }
        case .pixel:
            parts = [Part(shape: .pixels, width: tileWidth, rows: tileHeight)]
        case .multiY:
            parts = [Part(shape: .pixels, width: tileWidth / h, rows: tileHeight)]
        case .row:
            parts = [Part(shape: .rows, width: tileWidth, rows: tileHeight)]
        case .mixed:
            let pair = components.indices.filter { [.cb, .cr].contains(components[$0].role) }
            for index in components.indices {
                if index == pair.first {
                    parts.append(Part(shape: .chroma(pair: pair), width: tileWidth / h, rows: tileHeight / v))
                } else if !pair.contains(index) {
                    parts.append(Part(shape: .plane(component: index), width: tileWidth, rows: tileHeight))
                }
            }
        }
        var total = 0
        for index in parts.indices {
            var counter = SampleReader(nil, format: format)
            var values: [UInt32] = []
            try Self.walkRow(parts[index], format: format, reader: &counter, values: &values) { _, _, _ in }
            parts[index].rowBytes = counter.byteOffset
            var bytes = try Self.product(counter.byteOffset, parts[index].rows)
            if format.interleave == .tileComponent { bytes = try Self.padded(bytes, format.tileAlignSize) }
            parts[index].bytes = bytes
            total = try Self.sum(total, bytes)
        }
        self.parts = parts
        tileBytes = format.interleave == .tileComponent ? total : try Self.padded(total, format.tileAlignSize)
    }

    var tileCount: Int { format.tileColumns * format.tileRows }

    /// Reads one row of `part` and hands each sample to `store(component, x, value)`,
    /// `x` counted in the component's own plane within the tile.
    static func walkRow(_ part: Part, format: UncompressedFormat, reader: inout SampleReader, values: inout [UInt32],
                        store: (Int, Int, UInt32) -> Void) throws(UncompressedError) {
        let all = Array(format.components.indices), single = all.map { [$0] }
        reader.startRow()
        switch part.shape {
        case .plane(let component):
            for x in 0..<part.width {
                try reader.read(single[component], into: &values)
                store(component, x, values[0])
            }
        case .rows:
            for component in all {
                if component > 0 {
                    try reader.endRow()
                    reader.startRow()
                }
                for x in 0..<part.width {
                    try reader.read(single[component], into: &values)
                    store(component, x, values[0])
                }
            }
        case .pixels:
            let groupWidth = format.interleave == .multiY ? format.sampling.factors.horizontal : 1
            for x in 0..<part.width {
                reader.startPixel()
                try reader.read(all, into: &values)
                var luma = 0
                for (component, value) in zip(all, values) {
                    let role = format.components[component].role
                    if groupWidth > 1 && role == .luma {
                        // The group's luma samples, left to right.
                        store(component, x * groupWidth + luma, value)
                        luma += 1
                    } else if groupWidth > 1 && role != .cb && role != .cr {
                        store(component, x * groupWidth, value)
                    } else {
                        store(component, x, value)
                    }
                }
                try reader.endPixel()
            }
        case .chroma(let pair):
            for x in 0..<part.width {
                try reader.read(pair, into: &values)
                for (component, value) in zip(pair, values) { store(component, x, value) }
            }
        }
        try reader.endRow()
    }

    static func product(_ a: Int, _ b: Int) throws(UncompressedError) -> Int {
        let (value, overflow) = a.multipliedReportingOverflow(by: b)
        guard !overflow else { throw .malformed("the image's layout is too large") }
        return value
    }

    static func sum(_ a: Int, _ b: Int) throws(UncompressedError) -> Int {
        let (value, overflow) = a.addingReportingOverflow(b)
        guard !overflow else { throw .malformed("the image's layout is too large") }
        return value
    }

    /// `bytes` rounded up to a multiple of `alignment` (0: as it is).
    static func padded(_ bytes: Int, _ alignment: Int) throws(UncompressedError) -> Int {
        guard alignment > 0, bytes % alignment != 0 else { return bytes }
        return try sum(bytes, alignment - bytes % alignment)
    }
}
