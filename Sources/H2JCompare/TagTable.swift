import H2JMetadata

/// `compare --html`'s tag table for one source: every EXIF, XMP and ICC tag of the source
/// and of each output, a row per tag (the source's in its order, then those only the
/// outputs have), and what each output did with it.
struct TagTable {
    /// What an output holds of a tag, compared with the source.
    enum Fate: String {
        case same, dropped, changed, added, absent
    }

    struct Row {
        let tag: MetadataTag
        /// The source's value; nil when only outputs have it.
        let source: String?
        /// Each output's value and fate, in the outputs' order.
        let outputs: [(value: String?, fate: Fate)]
    }

    let rows: [Row]

    init(source: [MetadataTag], outputs: [[MetadataTag]]) {
        var order: [MetadataTag] = []
        var seen = Set<String>()
        for tag in source + outputs.joined() where seen.insert(tag.key).inserted { order.append(tag) }
        let sourceValues = Self.values(source)
        let outputValues = outputs.map(Self.values)
        rows = order.map { tag in
            let original = sourceValues[tag.key]
            return Row(tag: tag, source: original, outputs: outputValues.map { values in
                let value = values[tag.key]
                switch (original, value) {
                case (nil, nil): return (nil, .absent)
                case (nil, _): return (value, .added)
                case (_, nil): return (nil, .dropped)
                case let (a?, b?): return (value, a == b ? .same : .changed)
                }
            })
        }
    }

    /// A tag repeated under one key (two XMP packets' worth) keeps its first value.
    private static func values(_ tags: [MetadataTag]) -> [String: String] {
        Dictionary(tags.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
    }

    /// How many tags of each category output `index` dropped, in `Category` order.
    func dropped(by index: Int) -> [(MetadataTag.Category, Int)] {
        MetadataTag.Category.allCases.compactMap { category in
            let count = rows.filter { $0.tag.category == category && $0.outputs[index].fate == .dropped }.count
            return count > 0 ? (category, count) : nil
        }
    }
}
